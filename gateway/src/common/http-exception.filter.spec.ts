import { ErrorCode } from '@irp/proto';
import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';

const mockError = jest.fn();
jest.mock('@irp/platform', () => ({
  ...jest.requireActual('@irp/platform'),
  // Read when called: imports (and so this factory) run before the line above initialises mockError.
  createLogger: () => ({
    error: (...args: unknown[]) => mockError(...args),
    warn: jest.fn(),
    info: jest.fn(),
    debug: jest.fn(),
  }),
}));

// Imported after the mock so the filter's logger is the spy.
import { AppError } from '@irp/platform';
import { errorBodyOf } from './http-exception.filter';

describe('errorBodyOf', () => {
  beforeEach(() => mockError.mockClear());

  it('logs an unhandled error once and hides its message', () => {
    const body = errorBodyOf(new TypeError('cannot read x of undefined'));
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error',
      errorMessage: 'Internal server error',
    });
    expect(mockError).toHaveBeenCalledTimes(1);
  });

  it('logs a 5xx HttpException once, and client errors and AppErrors not at all', () => {
    errorBodyOf(new HttpException('broken', HttpStatus.BAD_GATEWAY));
    expect(mockError).toHaveBeenCalledTimes(1);
    mockError.mockClear();
    expect(errorBodyOf(new NotFoundException('Nope')).statusCode).toBe(404);
    expect(errorBodyOf(new AppError(ErrorCode.ServiceUnavailable, 'down')).statusCode).toBe(503);
    expect(mockError).not.toHaveBeenCalled();
  });

  it("answers the body parser's refusals as the client's mistakes: 413 naming the limit, other 4xx as they are", () => {
    // What body-parser throws (http-errors), without importing its internals.
    const parserError = (status: number, type: string, message: string, extra: object = {}) =>
      Object.assign(new Error(message), { status, statusCode: status, expose: true, type, ...extra });
    expect(
      errorBodyOf(parserError(413, 'entity.too.large', 'request entity too large', { limit: 102400 })),
    ).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'The request body is larger than 100 KB',
      errorMessage: 'The request body is larger than 100 KB',
    });
    const charset = errorBodyOf(parserError(415, 'charset.unsupported', 'unsupported charset "KOI8-R"'));
    expect([charset.statusCode, charset.message]).toEqual([415, 'unsupported charset "KOI8-R"']);
    // A 5xx, or an error not exposed to clients, stays an unhandled error.
    expect(errorBodyOf(parserError(500, 'stream.not.readable', 'stream is not readable')).statusCode).toBe(
      500,
    );
    expect(
      errorBodyOf(Object.assign(new Error('x'), { status: 413, type: 'entity.too.large' })).statusCode,
    ).toBe(500);
    expect(mockError).toHaveBeenCalledTimes(2);
  });
});
