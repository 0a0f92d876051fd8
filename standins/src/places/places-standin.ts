import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  FaultRuleInput,
  HttpError,
  parseWith,
  readJson,
  sendJson,
  StandInServer,
  startStandInServer,
} from '../kit';
import { DEMO_ADDRESSES } from './addresses';

/** The Places-type autocomplete request as the vendor takes it (vendor-apis.md, "Address autocomplete"). */
const AutocompleteRequestSchema = z.object({
  input: z.string(),
  includedRegionCodes: z.array(z.string()).optional(),
  includedPrimaryTypes: z.array(z.string()).optional(),
  // Places API (New)'s AutocompletePlacesRequest.session_token (places_service.proto): "a URL and filename safe
  // base64 string with at most 36 ASCII characters in length. Otherwise an INVALID_ARGUMENT error is returned."
  sessionToken: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,36}$/,
      'sessionToken must be a URL and filename safe base64 string with at most 36 ASCII characters',
    )
    .optional(),
});

/** Most suggestions the vendor returns for one input. */
export const MAX_SUGGESTIONS = 5;

const placeIdOf = (address: string) =>
  `ChIJ${createHash('sha256').update(address).digest('base64url').slice(0, 23)}`;

/** The address split as the vendor's structuredFormat: the street, then suburb, state and postcode. */
function structured(address: string) {
  const comma = address.indexOf(', ');
  return {
    mainText: { text: comma < 0 ? address : address.slice(0, comma) },
    secondaryText: { text: comma < 0 ? 'Australia' : `${address.slice(comma + 2)}, Australia` },
  };
}

/** Every word of the input starts a word of the address (case-insensitive), as people type addresses. */
export function matches(address: string, input: string): boolean {
  const words = address.toLowerCase().split(/[\s,]+/);
  return input
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)
    .every((w) => words.some((word) => word.startsWith(w)));
}

/**
 * A local stand-in of a Places-type address autocomplete API: `POST /v1/places:autocomplete` with a key
 * in `X-Goog-Api-Key` (any non-empty key; none is 403 in the vendor's error shape), suggestions among
 * DEMO_ADDRESSES for Australia only (another region gives none). On the stand-in kit: faults on route
 * `autocomplete` (group `api`), `/standin/health`.
 */
export function startPlacesStandIn(
  options: { port?: number; faults?: FaultRuleInput[]; addresses?: readonly string[] } = {},
): Promise<StandInServer> {
  const addresses = options.addresses ?? DEMO_ADDRESSES;
  return startStandInServer({
    port: options.port,
    faults: options.faults,
    health: () => ({ addresses: addresses.length }),
    errorBody: (status, message) => ({
      body: {
        error: { code: status, message, status: status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT' },
      },
    }),
    routes: [
      {
        method: 'POST',
        path: '/v1/places:autocomplete',
        name: 'autocomplete',
        group: 'api',
        handle: async ({ req, res }) => {
          if (!String(req.headers['x-goog-api-key'] ?? '').trim())
            throw new HttpError(403, 'The request is missing a valid API key.');
          const body = parseWith(AutocompleteRequestSchema, await readJson(req));
          const regions = body.includedRegionCodes?.map((r) => r.toLowerCase());
          const input = body.input.trim();
          const found =
            !input || (regions && !regions.includes('au'))
              ? []
              : addresses.filter((a) => matches(a, input)).slice(0, MAX_SUGGESTIONS);
          sendJson(res, 200, {
            suggestions: found.map((address) => ({
              placePrediction: {
                place: `places/${placeIdOf(address)}`,
                placeId: placeIdOf(address),
                text: { text: `${address}, Australia`, matches: [] },
                structuredFormat: structured(address),
                types: ['street_address', 'geocode'],
              },
            })),
          });
        },
      },
    ],
  });
}
