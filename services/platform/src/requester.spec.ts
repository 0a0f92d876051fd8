import { KafkaHeaders } from '@nestjs/microservices';
import type { EachMessagePayload, KafkaMessage } from 'kafkajs';
import { decodeReply, KafkaRequester } from './requester';

/** The reply callback of a requester's Nest client, and the routing map it answers through. */
function replyCallbackOf(requester: KafkaRequester) {
  const client = (requester as unknown as { client: Record<string, unknown> }).client as unknown as {
    routingMap: Map<string, (packet: unknown) => void>;
    createResponseCallback(): (payload: EachMessagePayload) => Promise<void>;
  };
  return { routingMap: client.routingMap, onReply: client.createResponseCallback() };
}

const reply = (headers: KafkaMessage['headers'], value: KafkaMessage['value']) =>
  ({ topic: 'users.reply', partition: 0, message: { headers, value } }) as unknown as EachMessagePayload;

describe('KafkaRequester reply callback', () => {
  const requester = new KafkaRequester({
    brokers: ['127.0.0.1:1'],
    service: 'requester-test',
    instanceId: '1',
    topics: ['users.ping'],
    timeoutMs: 1000,
  });

  it('hands its own reply to the waiting request, its value decoded as JSON', async () => {
    const { routingMap, onReply } = replyCallbackOf(requester);
    const got = jest.fn();
    routingMap.set('id-1', got);
    await onReply(
      reply(
        {
          [KafkaHeaders.CORRELATION_ID]: Buffer.from('id-1'),
          [KafkaHeaders.NEST_IS_DISPOSED]: Buffer.alloc(1),
        },
        Buffer.from('{"ok":true,"data":{"pong":1}}'),
      ),
    );
    expect(got).toHaveBeenCalledWith({ response: { ok: true, data: { pong: 1 } }, isDisposed: true });
  });

  it("leaves another requester's reply undecoded (a reply topic carries every requester group's replies)", async () => {
    const { routingMap, onReply } = replyCallbackOf(requester);
    const ours = jest.fn();
    routingMap.set('id-2', ours);
    const value = { toString: jest.fn(() => '{}') } as unknown as Buffer;
    await onReply(reply({ [KafkaHeaders.CORRELATION_ID]: Buffer.from('someone-else') }, value));
    await onReply(reply({}, value));
    expect(value.toString).not.toHaveBeenCalled();
    expect(ours).not.toHaveBeenCalled();
  });

  it("passes a server's error header on as the request's error", async () => {
    const { routingMap, onReply } = replyCallbackOf(requester);
    const got = jest.fn();
    routingMap.set('id-3', got);
    await onReply(
      reply(
        {
          [KafkaHeaders.CORRELATION_ID]: Buffer.from('id-3'),
          [KafkaHeaders.NEST_ERR]: Buffer.from('{"message":"x"}'),
        },
        null,
      ),
    );
    expect(got).toHaveBeenCalledWith({ err: { message: 'x' }, isDisposed: true });
  });
});

describe('decodeReply', () => {
  it('parses JSON objects and arrays and keeps any other text as it is', () => {
    expect(decodeReply('{"a":1}')).toEqual({ a: 1 });
    expect(decodeReply('[1]')).toEqual([1]);
    expect(decodeReply('{not json')).toBe('{not json');
    expect(decodeReply('plain')).toBe('plain');
    expect(decodeReply(null)).toBeNull();
  });
});
