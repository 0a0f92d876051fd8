import type { StandInServer } from '../kit';
import { DEMO_ADDRESSES } from './addresses';
import { MAX_SUGGESTIONS, matches, startPlacesStandIn } from './places-standin';

interface Answer {
  suggestions: Array<{ placePrediction: { placeId: string; text: { text: string } } }>;
}

describe('places stand-in', () => {
  let standIn: StandInServer;
  beforeAll(async () => {
    standIn = await startPlacesStandIn();
  });
  afterAll(() => standIn.close());

  const autocomplete = (body: object, key = 'any-key') =>
    fetch(`${standIn.url}/v1/places:autocomplete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'X-Goog-Api-Key': key } : {}) },
      body: JSON.stringify(body),
    });

  it('holds a few dozen Australian addresses', () => {
    expect(DEMO_ADDRESSES.length).toBeGreaterThanOrEqual(30);
    expect(DEMO_ADDRESSES.every((a) => /\b(NSW|VIC|QLD|WA|SA|TAS|NT|ACT) \d{4}$/.test(a))).toBe(true);
  });

  it('suggests the addresses whose words start with what was typed, in Australia only', async () => {
    const res = await autocomplete({ input: '190 st georges', includedRegionCodes: ['au'] });
    expect(res.status).toBe(200);
    const { suggestions } = (await res.json()) as Answer;
    expect(suggestions.map((s) => s.placePrediction.text.text)).toEqual([
      '190 St Georges Terrace, Perth WA 6000, Australia',
    ]);
    expect(suggestions[0]?.placePrediction.placeId).toMatch(/^ChIJ/);
    const many = (await (
      await autocomplete({ input: 'street', includedRegionCodes: ['au'] })
    ).json()) as Answer;
    expect(many.suggestions).toHaveLength(MAX_SUGGESTIONS);
    const elsewhere = (await (
      await autocomplete({ input: '190 St', includedRegionCodes: ['nz'] })
    ).json()) as Answer;
    expect(elsewhere.suggestions).toEqual([]);
  });

  it('refuses a request without a key (403) or without input (400), in the vendor error shape', async () => {
    const noKey = await autocomplete({ input: 'Collins' }, '');
    expect(noKey.status).toBe(403);
    expect(await noKey.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    expect((await autocomplete({})).status).toBe(400);
  });

  it('matches word starts, not substrings', () => {
    expect(matches('101 Collins Street, Melbourne VIC 3000', 'coll melb')).toBe(true);
    expect(matches('101 Collins Street, Melbourne VIC 3000', 'ollins')).toBe(false);
  });
});
