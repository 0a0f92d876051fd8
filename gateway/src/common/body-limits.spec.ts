import { bodyParserRefusal } from './body-limits';

/** What body-parser throws (http-errors): exposed, with a status and a type. */
const parserError = (type: string, status: number, message: string, extra: object = {}) =>
  Object.assign(new Error(message), { type, status, expose: true, ...extra });

describe('bodyParserRefusal', () => {
  it('says that the body is not valid JSON, with the parser words after', () => {
    expect(
      bodyParserRefusal(parserError('entity.parse.failed', 400, 'Unexpected end of JSON input')),
    ).toEqual({
      status: 400,
      message: 'The request body is not valid JSON: Unexpected end of JSON input',
    });
  });

  it('names the limit of a body too large, and keeps the other refusals as they are', () => {
    expect(
      bodyParserRefusal(parserError('entity.too.large', 413, 'request entity too large', { limit: 102400 })),
    ).toEqual({
      status: 413,
      message: 'The request body is larger than 100 KB',
    });
    expect(bodyParserRefusal(parserError('charset.unsupported', 415, 'unsupported charset "X"'))).toEqual({
      status: 415,
      message: 'unsupported charset "X"',
    });
  });

  it('is not a refusal for anything else', () => {
    expect(bodyParserRefusal(new Error('boom'))).toBeUndefined();
  });
});
