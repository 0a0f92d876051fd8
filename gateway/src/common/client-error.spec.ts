import { clientErrorAnswer } from './client-error';

describe('clientErrorAnswer', () => {
  it("answers Node's parser refusals as people read them", () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toEqual({
      status: 431,
      message: 'The URL and headers are larger than 16 KB',
    });
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({
      status: 408,
      message: 'The request was not received in time',
    });
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toEqual({
      status: 400,
      message: 'The request is not valid HTTP',
    });
  });
});
