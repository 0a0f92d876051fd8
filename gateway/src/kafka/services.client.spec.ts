import { Topics } from '@irp/proto';
import { GatewayConfig } from '../config';
import { ServicesClient } from './services.client';

/** A requester whose replies the test releases by hand. */
function clientWithManualReplies() {
  const calls: { topic: string; resolve: (v: unknown) => void }[] = [];
  const client = new ServicesClient({
    KAFKA_BROKERS: ['127.0.0.1:1'],
    KAFKA_REQUEST_TIMEOUT_MS: 1000,
  } as unknown as GatewayConfig);
  (client as unknown as { requester: unknown }).requester = {
    request: (topic: string) => new Promise((resolve) => calls.push({ topic, resolve })),
  };
  return { client, calls };
}

describe('ServicesClient.shared', () => {
  it('lets identical concurrent reads share one round trip', async () => {
    const { client, calls } = clientWithManualReplies();
    const a = client.shared(Topics.StocksList, {});
    const b = client.shared(Topics.StocksList, {});
    expect(calls).toHaveLength(1);
    calls[0].resolve({ stocks: [] });
    await expect(Promise.all([a, b])).resolves.toEqual([{ stocks: [] }, { stocks: [] }]);
    // Once answered, the next read asks again.
    void client.shared(Topics.StocksList, {});
    expect(calls).toHaveLength(2);
  });

  it('never lets a read join one that started before a mutating request finished', async () => {
    const { client, calls } = clientWithManualReplies();
    const before = client.shared(Topics.StocksList, {});
    const save = client.request(Topics.StocksSave, {} as never);
    calls[1].resolve({ stock: {} });
    await save;
    const after = client.shared(Topics.StocksList, {});
    expect(calls).toHaveLength(3);
    calls[0].resolve({ stocks: ['old'] });
    calls[2].resolve({ stocks: ['new'] });
    await expect(before).resolves.toEqual({ stocks: ['old'] });
    await expect(after).resolves.toEqual({ stocks: ['new'] });
  });

  it('does not share reads with different payloads', () => {
    const { client, calls } = clientWithManualReplies();
    void client.shared(Topics.StocksGetByIds, { ids: [] });
    void client.shared(Topics.StocksGetByIds, { ids: ['00000000-0000-4000-8000-000000000001'] });
    expect(calls).toHaveLength(2);
  });

  it("shares any read's work by key (the staff list composed from many requests) under the same rule", async () => {
    const { client, calls } = clientWithManualReplies();
    let built = 0;
    const build = () => {
      const n = ++built;
      return client.shared(Topics.StocksList, {}).then((reply) => ({ built: n, reply }));
    };
    const a = client.sharedRead('staff list admin', build);
    const b = client.sharedRead('staff list admin', build);
    const other = client.sharedRead('staff list summary', async () => 'summary');
    const save = client.request(Topics.StocksSave, {} as never);
    calls[1].resolve({ stock: {} });
    await save;
    const afterSave = client.sharedRead('staff list admin', build);
    expect(built).toBe(2);
    calls[0].resolve({ stocks: ['old'] });
    calls[2].resolve({ stocks: ['new'] });
    await expect(Promise.all([a, b])).resolves.toEqual([
      { built: 1, reply: { stocks: ['old'] } },
      { built: 1, reply: { stocks: ['old'] } },
    ]);
    await expect(afterSave).resolves.toEqual({ built: 2, reply: { stocks: ['new'] } });
    await expect(other).resolves.toBe('summary');
  });
});
