import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import { Topics } from '@irp/proto';
import { defineService } from './define-service';
import { topicsOf } from './role-server';
import { consumerGroupOf, consumerGroupsOf, parseRoles, topicGroupOf } from './roles';

@Controller()
class ApiHandlers {
  @MessagePattern(Topics.StocksList)
  list() {
    return [];
  }
}

@Controller()
class PollerHandlers {
  @EventPattern(Topics.StockArchived)
  started() {}
  @EventPattern(Topics.StockTickerChanged)
  completed() {}
}

const manifest = {
  name: 'example',
  workspace: 'services/example',
  package: '@irp/example',
  healthPort: 3199,
  schema: 'example',
  roles: ['api', 'poller'],
};
const database = { entities: [], migrations: [] };

describe('scaling roles', () => {
  it('keeps the service name as the api group and gives every other role a group of its own', () => {
    expect(consumerGroupOf('announcements', 'api')).toBe('announcements');
    expect(consumerGroupOf('announcements', 'poller')).toBe('announcements.poller');
  });

  it("names a role's own consumers after the role and says which group takes each topic", () => {
    const service = {
      name: 'email-marketing',
      roles: ['api', 'sender'],
      consumers: { sender: { requests: ['announcement.send-requested'] } },
    };
    expect(consumerGroupOf('email-marketing', 'sender', 'requests')).toBe('email-marketing.sender.requests');
    expect(topicGroupOf(service, 'sender', 'announcement.send-requested')).toBe(
      'email-marketing.sender.requests',
    );
    expect(topicGroupOf(service, 'sender', 'email.deliveries-queued')).toBe('email-marketing.sender');
    expect(topicGroupOf(service, 'api', 'email-marketing.subscribers')).toBe('email-marketing');
    expect(consumerGroupsOf(service)).toEqual([
      'email-marketing',
      'email-marketing.sender',
      'email-marketing.sender.requests',
    ]);
    expect(consumerGroupsOf({ name: 'users', roles: ['api'] })).toEqual(['users']);
  });

  it('defaults to every role and refuses unknown ones', () => {
    expect(parseRoles(undefined, ['api', 'poller'])).toEqual({ ok: true, roles: ['api', 'poller'] });
    expect(parseRoles('', ['api', 'poller'])).toEqual({ ok: true, roles: ['api', 'poller'] });
    expect(parseRoles('poller', ['api', 'poller'])).toEqual({ ok: true, roles: ['poller'] });
    expect(parseRoles('poler,x', ['api', 'poller'])).toEqual({
      ok: false,
      problem: "unknown roles poler, x; this service's roles are api, poller",
    });
  });

  it('reads the topics of handler classes from their patterns', () => {
    expect(topicsOf([ApiHandlers, PollerHandlers])).toEqual([
      Topics.StocksList,
      Topics.StockArchived,
      Topics.StockTickerChanged,
    ]);
  });

  it('binds only the handlers of the roles a process runs', () => {
    const service = defineService(
      {
        name: 'example',
        database,
        roles: { api: { handlers: [ApiHandlers] }, poller: { handlers: [PollerHandlers] } },
      },
      manifest,
    );
    const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' };
    expect(service.module(service.loadConfig({ ...env, ROLES: 'poller' })).controllers).toEqual([
      PollerHandlers,
    ]);
    expect(service.module(service.loadConfig({ ...env, ROLES: 'api' })).controllers).toEqual([ApiHandlers]);
    expect(service.module(service.loadConfig(env)).controllers).toEqual([ApiHandlers, PollerHandlers]);
    expect(service.loadConfig(env).HEALTH_PORT).toBe(3199);
  });

  it('answers the service ping from the platform, in the api role only', () => {
    const users = defineService({ name: 'users', database, roles: { api: {} } });
    const env = { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z', INSTANCE_ID: 'users-7' };
    const controllers = users.module(users.loadConfig(env)).controllers ?? [];
    expect(topicsOf(controllers)).toEqual([Topics.UsersPing]);
    const handlers = new (controllers[0] as new () => { ping(): unknown })();
    expect(handlers.ping()).toEqual({ service: 'users', instance: 'users-7', at: expect.any(String) });
  });

  it("refuses a definition whose roles are not the manifest's", () => {
    expect(() => defineService({ name: 'example', database, roles: { api: {} } }, manifest)).toThrow(
      "example: the roles defined (api) must be the manifest's (api, poller)",
    );
    expect(() =>
      defineService({ name: 'example', database, roles: { api: {}, poller: {}, sender: {} } }, manifest),
    ).toThrow(/must be the manifest's/);
  });

  it("refuses a consumer of a role's own that takes a topic no handler of the role handles", () => {
    const withConsumers = (consumers: Record<string, Record<string, string[]>>) => () =>
      defineService(
        {
          name: 'example',
          database,
          roles: { api: { handlers: [ApiHandlers] }, poller: { handlers: [PollerHandlers] } },
        },
        { ...manifest, consumers },
      );
    expect(withConsumers({ poller: { archive: [Topics.StockArchived] } })).not.toThrow();
    expect(withConsumers({ poller: { list: [Topics.StocksList] } })).toThrow(
      `example: consumer poller.list takes ${Topics.StocksList}, which no poller handler handles`,
    );
    expect(withConsumers({ poller: { a: [Topics.StockArchived], b: [Topics.StockArchived] } })).toThrow(
      `example: topic ${Topics.StockArchived} is in two consumers of the poller role`,
    );
  });

  it('refuses a topic handled in two roles (two consumer groups would each handle it)', () => {
    expect(() =>
      defineService(
        {
          name: 'example',
          database,
          roles: { api: { handlers: [PollerHandlers] }, poller: { handlers: [PollerHandlers] } },
        },
        manifest,
      ),
    ).toThrow(`example: topic ${Topics.StockArchived} is handled in both the api and the poller role`);
  });
});
