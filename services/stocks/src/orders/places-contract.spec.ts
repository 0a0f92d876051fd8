import { join } from 'node:path';
import { useVendorContract, VendorContract, VENDOR_CONTRACT_SETUP_MS } from '@irp/platform/testing';
import { startPlacesStandIn } from '@irp/standins/places';
import { PlacesClient } from './places-client';

/** Google's published protos of Places API (New) (vendor-descriptions/google-places/README.md). */
const PROTOS = join(__dirname, '../../../../vendor-descriptions/google-places/places.protos.json');

/**
 * Google's JSON error reply (`{ error: { code, message, status, details } }`): google.rpc.Status's fields
 * with the code's name as `status`, as Google's HTTP/JSON APIs answer errors (AIP-193). The protos package
 * does not carry google.rpc, so it is written here, closed like every other object.
 */
const GOOGLE_ERROR = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        status: { type: 'string' },
        details: { type: 'array', items: { type: 'object' } },
      },
    },
  },
};

/**
 * The address adapter and the Places stand-in against Places API (New) as Google publishes it, its
 * protocol buffers (ADR 0014): each request the adapter sends must be an AutocompletePlacesRequest in the
 * proto3 JSON mapping at the path its `google.api.http` option names, with the key in X-Goog-Api-Key; each
 * reply of the stand-in an AutocompletePlacesResponse, or Google's error.
 */
describe('the address adapter and stand-in against Places API (New)’s published protos', () => {
  const rig = useVendorContract({
    load: () =>
      VendorContract.loadProtos(PROTOS, {
        rpcs: ['google.maps.places.v1.Places.AutocompletePlaces'],
        server: 'https://places.googleapis.com',
        headers: [{ name: 'X-Goog-Api-Key', in: 'header', required: true, schema: { type: 'string' } }],
        error: GOOGLE_ERROR,
      }),
    startStandIn: () => startPlacesStandIn({ port: 0 }),
  });
  let places: PlacesClient;

  beforeAll(async () => {
    places = new PlacesClient(rig.proxy.url, 'demo-places-key');

    expect((await places.autocomplete('1 Mac')).length).toBeGreaterThan(0);
    await places.autocomplete('1 Mac', '2f0e6a4c-3b1d-4c8e-9a7f-5d2b8e1c0a93');
    await places.autocomplete('zzzz no such street');
    // Refused: no key (PERMISSION_DENIED), a session token Google would refuse (INVALID_ARGUMENT).
    await expect(new PlacesClient(rig.proxy.url, '').autocomplete('1 Mac')).rejects.toThrow();
    await expect(places.autocomplete('1 Mac', 'not a url-safe token!')).rejects.toThrow();
  }, VENDOR_CONTRACT_SETUP_MS);

  it('each request the adapter sent and each reply the stand-in gave is as published', () => {
    const answered = rig.proxy.exchanges.filter((e) => e.response.status === 200);
    expect(answered.length).toBe(3);
    for (const exchange of answered)
      expect(rig.problemsOf(exchange, 'AutocompletePlaces')).toEqual({
        operationId: 'AutocompletePlaces',
        problems: [],
      });
  });

  it('the refusals are Google’s error reply with the code’s name', () => {
    const refused = rig.proxy.exchanges.filter((e) => e.response.status !== 200);
    expect(
      refused.map((e) => [
        e.response.status,
        (e.response.body as { error: { status: string } }).error.status,
      ]),
    ).toEqual([
      [403, 'PERMISSION_DENIED'],
      [400, 'INVALID_ARGUMENT'],
    ]);
    for (const exchange of refused)
      expect(rig.contract.validateResponse('AutocompletePlaces', exchange.response)).toEqual([]);
  });

  it('a session token is sent as the request’s sessionToken, as the protos name it', () => {
    const withToken = rig.proxy.exchanges.filter(
      (e) => (e.request.body as { sessionToken?: string }).sessionToken,
    );
    expect((withToken[0]!.request.body as { sessionToken: string }).sessionToken).toBe(
      '2f0e6a4c-3b1d-4c8e-9a7f-5d2b8e1c0a93',
    );
  });

  describe('shown to fail on a deliberate mismatch', () => {
    it('a reply with a field renamed (placePrediction.placeId -> place_id)', () => {
      const [answer] = rig.proxy.exchanges.filter((e) => e.response.status === 200);
      const body = structuredClone(answer!.response.body) as {
        suggestions: Array<{ placePrediction: Record<string, unknown> }>;
      };
      body.suggestions[0]!.placePrediction.place_id = body.suggestions[0]!.placePrediction.placeId;
      delete body.suggestions[0]!.placePrediction.placeId;
      expect(rig.contract.validateResponse('AutocompletePlaces', { status: 200, body })).toEqual([
        'AutocompletePlaces 200: /suggestions/0/placePrediction must NOT have additional properties (place_id)',
      ]);
    });

    it('a request with a field the API does not take (the old API’s components)', () => {
      const [sent] = rig.proxy.exchanges;
      const request = structuredClone({ ...sent!.request, headers: { ...sent!.request.headers } });
      (request.body as Record<string, unknown>).components = 'country:au';
      expect(rig.contract.validateRequest(request, 'AutocompletePlaces').problems).toEqual([
        'AutocompletePlaces: /requestBody must NOT have additional properties (components)',
      ]);
    });

    it('a request without the key header', () => {
      const [sent] = rig.proxy.exchanges;
      const headers = { ...sent!.request.headers, 'x-goog-api-key': undefined };
      expect(
        rig.contract.validateRequest({ ...sent!.request, headers }, 'AutocompletePlaces').problems,
      ).toEqual(["AutocompletePlaces: /header must have required property 'x-goog-api-key'"]);
    });
  });
});
