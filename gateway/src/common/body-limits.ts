import { HttpStatus } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { GatewayConfig } from '../config';
import { sizeText } from './multipart';

export const bodyTooLargeMessage = (maxBytes: number): string =>
  `The request body is larger than ${sizeText(maxBytes)}`;

export const invalidJsonMessage = (detail: string): string => `The request body is not valid JSON: ${detail}`;

/**
 * The JSON and form bodies of every route, each capped at JSON_BODY_MAX_BYTES (the routes take form
 * inputs, the longest a few thousand characters). The one upload route reads its multipart body itself,
 * capped by its own setting (MultipartInterceptor); these parsers leave such a body alone. Nest's own
 * parsers are turned off (`bodyParser: false`), so these are the only ones.
 */
export function useBodyLimits(
  app: NestExpressApplication,
  config: Pick<GatewayConfig, 'JSON_BODY_MAX_BYTES'>,
) {
  const limit = config.JSON_BODY_MAX_BYTES;
  app.useBodyParser('json', { limit });
  app.useBodyParser('urlencoded', { limit, extended: true });
}

/** What body-parser throws (http-errors): its status and a `type` naming the problem. */
interface BodyParserError {
  status: number;
  type: string;
  message: string;
  limit?: number;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  if (!err || typeof err !== 'object') return false;
  const e = err as Partial<BodyParserError> & { expose?: unknown };
  return typeof e.type === 'string' && typeof e.status === 'number' && e.expose === true;
}

/**
 * A refusal of the body parser as the client's mistake: a body over the limit is 413 naming the limit,
 * the parser's other 4xx (an unsupported charset, too many form fields, an aborted upload) keep theirs.
 * Undefined for anything else. Before this the filter saw an unknown error and answered 500.
 */
export function bodyParserRefusal(err: unknown): { status: number; message: string } | undefined {
  if (!isBodyParserError(err) || err.status < 400 || err.status >= 500) return undefined;
  if (err.type === 'entity.too.large' && typeof err.limit === 'number')
    return { status: HttpStatus.PAYLOAD_TOO_LARGE, message: bodyTooLargeMessage(err.limit) };
  // The parser's own words ('Unexpected end of JSON input') do not say that it is the body that is wrong.
  if (err.type === 'entity.parse.failed')
    return { status: err.status, message: invalidJsonMessage(err.message) };
  return { status: err.status, message: err.message };
}
