import { z } from 'zod';
import { assembleCatalogue, defineServiceContract, PingReplySchema } from './contract';

const Thing = z.object({ id: z.string() });

describe('service contracts', () => {
  const probe = defineServiceContract({
    service: 'email-marketing',
    requests: {
      EmailMarketingGet: { topic: 'email-marketing.get', request: Thing, reply: Thing },
      EmailMarketingSave: { topic: 'email-marketing.save', request: Thing, reply: Thing, mutates: true },
    },
    events: { ThingSent: { topic: 'thing.sent', schema: Thing } },
  });

  it('gives every contract its <service>.ping, with the one ping schema', () => {
    expect(probe.ping).toBe('email-marketing.ping');
    expect(probe.topics.EmailMarketingPing).toBe('email-marketing.ping');
    expect(probe.requests['email-marketing.ping'].reply).toBe(PingReplySchema);
    expect(probe.requests['email-marketing.ping'].service).toBe('email-marketing');
  });

  it('keys requests and events by topic, keeping mutates', () => {
    expect(probe.requests['email-marketing.save']).toEqual({
      service: 'email-marketing',
      request: Thing,
      reply: Thing,
      mutates: true,
    });
    expect(probe.events['thing.sent'].schema).toBe(Thing);
    expect(probe.topics.ThingSent).toBe('thing.sent');
  });

  it('assembles contracts into one catalogue and refuses a topic defined twice', () => {
    const other = defineServiceContract({ service: 'other', requests: {} });
    const catalogue = assembleCatalogue([probe, other]);
    expect(catalogue.Services).toEqual({
      'email-marketing': { ping: 'email-marketing.ping' },
      other: { ping: 'other.ping' },
    });
    expect(Object.keys(catalogue.RequestCatalogue)).toContain('other.ping');
    const clash = defineServiceContract({
      service: 'clash',
      requests: {},
      events: { ThingSentAgain: { topic: 'thing.sent', schema: Thing } },
    });
    expect(() => assembleCatalogue([probe, clash])).toThrow('thing.sent is defined by two service contracts');
  });
});
