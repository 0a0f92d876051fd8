import { ErrorCode } from '@irp/proto';
import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';

const mockError = jest.fn();
jest.mock('@irp/platform', () => ({
  ...jest.requireActual('@irp/platform'),
  createLogger: () => ({ error: mockError, warn: jest.fn(), info: jest.fn(), debug: jest.fn() }),
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
});
