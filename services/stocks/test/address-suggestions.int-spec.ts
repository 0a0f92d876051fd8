import { startPlacesStandIn } from '@irp/standins/places';
import { AddressSuggestions } from '../src/orders/address-suggestions';

type StandIn = Awaited<ReturnType<typeof startPlacesStandIn>>;

/**
 * The order form's address suggestions over real HTTP: the Places-type adapter (on the platform's
 * VendorHttpClient) against the local stand-in, its fallback when the service fails, and no service
 * configured.
 */
describe('address suggestions against the places stand-in', () => {
  let standIn: StandIn;
  let suggestions: AddressSuggestions;
  beforeAll(async () => {
    standIn = await startPlacesStandIn();
    suggestions = new AddressSuggestions({ PLACES_BASE_URL: standIn.url, PLACES_API_KEY: 'test-key' });
  });
  afterAll(() => standIn.close());

  it('answers Australian address suggestions', async () => {
    const answer = await suggestions.suggest('120 Collins');
    expect(answer.available).toBe(true);
    expect(answer.suggestions.map((s) => s.text)).toEqual([
      '120 Collins Street, Melbourne VIC 3000, Australia',
    ]);
    // Too short to ask about: no call.
    const before = standIn.requests('autocomplete');
    expect(await suggestions.suggest('12')).toEqual({ available: true, suggestions: [] });
    expect(standIn.requests('autocomplete')).toBe(before);
  });

  it('says unavailable when the service fails, so the form keeps a plain field', async () => {
    standIn.faults.set({ kind: 'fail', route: 'api', status: 503 });
    try {
      expect(await suggestions.suggest('120 Collins')).toEqual({ available: false, suggestions: [] });
    } finally {
      standIn.faults.clear();
    }
    expect((await suggestions.suggest('120 Collins')).available).toBe(true);
  });

  it('says unavailable with no address service configured, without calling anything', async () => {
    const none = new AddressSuggestions({ PLACES_BASE_URL: undefined, PLACES_API_KEY: undefined });
    expect(await none.suggest('120 Collins')).toEqual({ available: false, suggestions: [] });
    const noKey = new AddressSuggestions({ PLACES_BASE_URL: standIn.url, PLACES_API_KEY: undefined });
    expect(await noKey.suggest('120 Collins')).toEqual({ available: false, suggestions: [] });
  });
});
