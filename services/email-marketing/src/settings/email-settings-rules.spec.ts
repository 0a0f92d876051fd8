import { API_KEY_MASK, EMPTY_EMAIL_MARKETING_SETTINGS, EmailMarketingSettings } from '@irp/proto';
import {
  campaignAudience,
  isConfigured,
  normaliseSettings,
  settingsOfOrder,
  settingsProblem,
  settingsView,
} from './email-settings-rules';

const settings = (over: Partial<EmailMarketingSettings> = {}): EmailMarketingSettings => ({
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  listId: 'list-1',
  apiKey: 'key-us1',
  ...over,
});

describe('email-marketing settings rules', () => {
  it('trims every field, joins the test addresses, and keeps a client id only for Campaign Monitor', () => {
    const typed = settings({ listId: ' l ', clientId: ' c ', testEmailAddresses: 'a@x.com;b@x.com' });
    expect(normaliseSettings(typed)).toMatchObject({
      listId: 'l',
      clientId: '',
      testEmailAddresses: 'a@x.com, b@x.com',
    });
    expect(normaliseSettings({ ...typed, provider: 'campaign-monitor' }).clientId).toBe('c');
  });

  it('names the field of an invalid address', () => {
    expect(settingsProblem(settings({ replyTo: 'nope' }))).toBe('Invalid email address in reply to: nope');
    expect(settingsProblem(settings({ testEmailAddresses: 'a@x.com, bad' }))).toBe(
      'Invalid email address in test email addresses: bad',
    );
    expect(settingsProblem(settings({ replyTo: 'ir@x.com' }))).toBeUndefined();
  });

  it('is set up with a key and a list, and answers the key masked', () => {
    expect(isConfigured(settings())).toBe(true);
    expect(isConfigured(settings({ listId: '' }))).toBe(false);
    expect(isConfigured(null)).toBe(false);
    expect(settingsView(settings())).toMatchObject({ apiKey: API_KEY_MASK, apiKeySet: true });
    expect(settingsView(settings({ apiKey: '' }))).toMatchObject({ apiKey: '', apiKeySet: false });
  });

  it("names a campaign's audience by the provider type and the list", () => {
    expect(campaignAudience(settings({ listId: 'demo-list' }))).toBe('Mailchimp-type list demo-list');
    expect(campaignAudience(settings({ provider: 'campaign-monitor', listId: 'l2' }))).toBe(
      'Campaign-Monitor-type list l2',
    );
  });

  describe("the order form's settings as a stock's", () => {
    const order = {
      service: 'campaign-monitor' as const,
      listId: ' list-9 ',
      apiKey: ' cm-key ',
      templateId: 'tpl-1',
      replyTo: 'ir@acme.example',
      fromName: 'Acme IR',
      clientId: ' client-7 ',
    };

    it('maps the service to the provider and trims every field; no segment or test addresses', () => {
      expect(settingsOfOrder(order)).toEqual({
        settings: {
          provider: 'campaign-monitor',
          listId: 'list-9',
          apiKey: 'cm-key',
          templateId: 'tpl-1',
          replyTo: 'ir@acme.example',
          fromName: 'Acme IR',
          savedSegmentId: '',
          clientId: 'client-7',
          testEmailAddresses: '',
        },
      });
      expect(settingsOfOrder({ ...order, service: 'mailchimp' }).settings).toMatchObject({
        provider: 'mailchimp',
        clientId: '',
      });
    });

    it('leaves out a reply-to that is no address, naming why, and keeps the rest', () => {
      const { settings: applied, dropped } = settingsOfOrder({ ...order, replyTo: 'not an address' });
      expect(dropped).toBe('Invalid email address in reply to: not an address');
      expect(applied).toMatchObject({ replyTo: '', listId: 'list-9', apiKey: 'cm-key' });
    });
  });
});
