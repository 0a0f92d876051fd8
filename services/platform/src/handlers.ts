import { EventOf, EventTopic, ReplyOf, RequestCatalogue, RequestTopic } from '@irp/proto';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import type { z } from 'zod';

/** What a handler of a request topic receives: the request as its proto schema parsed it. */
export type HandledRequest<T extends RequestTopic> = z.output<(typeof RequestCatalogue)[T]['request']>;

type RequestMethod<T extends RequestTopic> = (
  request: HandledRequest<T>,
  // Further parameters (a Kafka context) are the handler's business.
  ...rest: never[]
) => ReplyOf<T> | Promise<ReplyOf<T>>;

type EventMethod<T extends EventTopic> = (event: EventOf<T>, ...rest: never[]) => void | Promise<void>;

type TypedMethodDecorator<M> = <H extends M>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => TypedPropertyDescriptor<H> | void;

/**
 * `@MessagePattern(topic)` whose method the compiler checks against the topic's proto schemas: it takes
 * the request and returns (or resolves to) the reply schema's type, so a wrong reply shape fails the
 * build instead of a request. The MessageInterceptor validates the payload before the method runs.
 */
export function HandleRequest<T extends RequestTopic>(topic: T): TypedMethodDecorator<RequestMethod<T>> {
  const pattern = MessagePattern(topic);
  return (target, key, descriptor) => pattern(target, key, descriptor);
}

/** `@EventPattern(topic)` whose method the compiler checks against the event's proto schema. */
export function HandleEvent<T extends EventTopic>(topic: T): TypedMethodDecorator<EventMethod<T>> {
  const pattern = EventPattern(topic);
  return (target, key, descriptor) => pattern(target, key, descriptor);
}
