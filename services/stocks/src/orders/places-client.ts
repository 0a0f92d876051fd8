import { VendorHttpClient, vendorJson } from '@irp/platform';
import { z } from 'zod';

/** The Places-type API's autocomplete answer, as far as we read it (vendor-apis.md, "Address autocomplete"). */
const AutocompleteSchema = z.object({
  suggestions: z
    .array(
      z.object({
        placePrediction: z.object({ placeId: z.string(), text: z.object({ text: z.string() }) }).optional(),
      }),
    )
    .default([]),
});

export interface AddressSuggestion {
  placeId: string;
  text: string;
}

/**
 * The adapter for a Places-type address autocomplete API: `POST /v1/places:autocomplete` with the key in
 * `X-Goog-Api-Key`, restricted to Australian addresses. On the platform's VendorHttpClient (timeouts,
 * retries, limits, the SSRF guard).
 */
export class PlacesClient {
  private readonly http: VendorHttpClient;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.http = new VendorHttpClient({
      vendor: 'stocks:places',
      baseUrls: [baseUrl],
      timeoutMs: 5_000,
      maxAttempts: 2,
      maxConcurrent: 10,
      perMinute: 600,
      maxResponseBytes: 256 * 1024,
    });
  }

  /** Address suggestions for what the person typed; a VendorError when the service cannot answer. */
  async autocomplete(input: string, sessionToken?: string): Promise<AddressSuggestion[]> {
    const { body } = await vendorJson(
      this.http,
      `${this.baseUrl}/v1/places:autocomplete`,
      AutocompleteSchema,
      {
        method: 'POST',
        headers: { 'X-Goog-Api-Key': this.apiKey },
        body: {
          input,
          includedRegionCodes: ['au'],
          // Addresses only, not businesses or regions (the spec's "restricted to addresses").
          includedPrimaryTypes: ['street_address', 'premise', 'subpremise'],
          ...(sessionToken ? { sessionToken } : {}),
        },
      },
    );
    return body.suggestions.flatMap((s) =>
      s.placePrediction ? [{ placeId: s.placePrediction.placeId, text: s.placePrediction.text.text }] : [],
    );
  }
}
