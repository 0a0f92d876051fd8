import { API_KEY_MASK, BOTH_KEYS_MESSAGE, EMPTY_EMAIL_MARKETING_SETTINGS, type Subscriber } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import {
  bySubscribedNewestFirst,
  formValuesOf,
  missingKeysProblem,
  PROVIDER_OPTIONS,
  saveBodyOf,
  settingsChanged,
  subscriberCountArgsOf,
  subscriberCountText,
  testSendBodyOf,
} from './emailMarketingForm';

const VALUES = {
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  listId: 'list-1',
  apiKey: 'key-1',
  clientId: 'client-1',
};
const PRODUCT = { id: 'id-1', productApiKey: 'product-1' };

describe('email marketing form rules', () => {
  it('offers the two provider types with their labels', () => {
    expect(PROVIDER_OPTIONS).toEqual([
      { value: 'mailchimp', label: 'Mailchimp-type' },
      { value: 'campaign-monitor', label: 'Campaign-Monitor-type' },
    ]);
  });

  it('starts blank without saved settings and drops the stock id of saved ones', () => {
    expect(formValuesOf(null)).toEqual(EMPTY_EMAIL_MARKETING_SETTINGS);
    expect(formValuesOf({ ...VALUES, stockId: 'id-1', apiKeySet: true })).toEqual(VALUES);
  });

  it('sends the client ID only for the second provider type, trimmed', () => {
    expect(saveBodyOf('id-1', { ...VALUES, listId: ' list-1 ' })).toEqual({
      StockId: 'id-1',
      Settings: { ...VALUES, clientId: '' },
    });
    const { apiKey: emailMarketingApiKey, ...rest } = VALUES;
    expect(
      testSendBodyOf(
        { id: 'id-1', productApiKey: ' product-1 ' },
        { ...VALUES, provider: 'campaign-monitor' },
      ),
    ).toEqual({
      ...rest,
      provider: 'campaign-monitor',
      apiKey: 'product-1',
      emailMarketingApiKey,
    });
  });

  it('names the stock by id, with no product key, when the user may not see that key (the server uses it)', () => {
    const { apiKey: emailMarketingApiKey, ...rest } = VALUES;
    expect(testSendBodyOf({ id: 'id-1', productApiKey: undefined }, VALUES)).toEqual({
      ...rest,
      clientId: '', // the first provider type has none
      apiKey: '',
      stockId: 'id-1',
      emailMarketingApiKey,
    });
    expect(testSendBodyOf(PRODUCT, VALUES)).not.toHaveProperty('stockId');
    expect(testSendBodyOf({ id: 'id-1', productApiKey: null }, VALUES)).not.toHaveProperty('stockId');
  });

  it('sends a key typed here with a test send, never the stored key’s mask (the server uses the stored key)', () => {
    expect(testSendBodyOf(PRODUCT, { ...VALUES, apiKey: API_KEY_MASK })).not.toHaveProperty(
      'emailMarketingApiKey',
    );
    expect(testSendBodyOf(PRODUCT, VALUES).emailMarketingApiKey).toBe('key-1');
  });

  it('counts as changed only what would be saved differently', () => {
    expect(settingsChanged(VALUES, { ...VALUES, fromName: '  ' })).toBe(false);
    expect(settingsChanged(VALUES, { ...VALUES, clientId: 'other' })).toBe(false);
    expect(settingsChanged(VALUES, { ...VALUES, fromName: 'IR' })).toBe(true);
    expect(settingsChanged(VALUES, { ...VALUES, provider: 'campaign-monitor' })).toBe(true);
  });

  it('needs BOTH keys to send', () => {
    expect(missingKeysProblem('product', VALUES)).toBeNull();
    expect(missingKeysProblem(null, VALUES)).toBe(BOTH_KEYS_MESSAGE);
    expect(missingKeysProblem(' ', VALUES)).toBe(BOTH_KEYS_MESSAGE);
    expect(missingKeysProblem('product', { ...VALUES, apiKey: '' })).toBe(BOTH_KEYS_MESSAGE);
  });

  it('leaves a product key the user may not see (no ViewConfig: absent) to the server', () => {
    expect(missingKeysProblem(undefined, VALUES)).toBeNull();
    expect(missingKeysProblem(undefined, { ...VALUES, apiKey: ' ' })).toBe(BOTH_KEYS_MESSAGE);
  });

  it('asks the count with the stored key (never a key in the URL) and a list', () => {
    const stored = { ...VALUES, apiKey: API_KEY_MASK };
    expect(subscriberCountArgsOf('id-1', stored)).toEqual({
      stockId: 'id-1',
      provider: 'mailchimp',
      listId: 'list-1',
      clientId: '',
    });
    expect(subscriberCountArgsOf('id-1', { ...stored, provider: 'campaign-monitor' })?.clientId).toBe(
      'client-1',
    );
    expect(subscriberCountArgsOf('id-1', { ...stored, apiKey: ' ' })).toBeNull();
    expect(subscriberCountArgsOf('id-1', { ...stored, listId: '' })).toBeNull();
    // A key typed and not saved yet: nothing to count with until it is saved.
    expect(subscriberCountArgsOf('id-1', VALUES)).toBeNull();
  });

  it('writes counts with thousands separators', () => {
    expect(subscriberCountText(1234)).toBe('1,234 subscribers');
    expect(subscriberCountText(1)).toBe('1 subscriber');
    expect(subscriberCountText(0)).toBe('0 subscribers');
  });

  it('orders subscribers newest first', () => {
    const at = (subscribedAt: string) => ({ subscribedAt }) as Subscriber;
    expect(
      bySubscribedNewestFirst([at('2025-01-01T00:00:00Z'), at('2025-03-01T00:00:00Z')]).map(
        (s) => s.subscribedAt,
      ),
    ).toEqual(['2025-03-01T00:00:00Z', '2025-01-01T00:00:00Z']);
  });
});
