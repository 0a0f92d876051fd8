import { maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpException, HttpStatus } from '@nestjs/common';
import { errorBodyOf } from './http-exception.filter';
import { sizeText } from './multipart';

/** The answer to a request Node's HTTP parser refused before Express saw it: its status and message. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      message: `The URL and headers are larger than ${sizeText(maxHeaderSize)}`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: HttpStatus.REQUEST_TIMEOUT, message: 'The request was not received in time' };
  return { status: HttpStatus.BAD_REQUEST, message: 'The request is not valid HTTP' };
}

/**
 * Requests Node's HTTP parser refuses (a URL or headers past its limit, malformed HTTP) were answered by
 * Node itself with a status and no body; they get the one error body too, so every refusal names its
 * problem in `errorMessage`.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(err.code);
    const body = JSON.stringify(errorBodyOf(new HttpException(message, status)));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
