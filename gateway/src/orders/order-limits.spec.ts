import type { Request } from 'express';
import { memoryLimitStore } from '../limits/memory-limit-store';
import { OrderLimits } from './order-limits';

const from = (ip: string) => ({ ip }) as Request;

describe("OrderLimits: the address vendor's budget", () => {
  const limits = (over: Partial<ConstructorParameters<typeof OrderLimits>[1]> = {}) =>
    new OrderLimits(memoryLimitStore(), {
      ORDER_RATE_PER_ADDRESS: 5,
      ORDER_RATE_WINDOW_MS: 3_600_000,
      ADDRESS_LOOKUPS_PER_MINUTE: 60,
      ADDRESS_LOOKUP_BUDGET_PER_MINUTE: 1000,
      ADDRESS_LOOKUP_BUDGET_PER_DAY: 1000,
      ADDRESS_LOOKUPS_PER_SESSION: 1000,
      ...over,
    });
  const answers = async (limit: OrderLimits, calls: Array<[string | undefined, string]>) => {
    const left: boolean[] = [];
    for (const [token, ip] of calls) left.push(await limit.addressBudgetLeft(token, from(ip)));
    return left;
  };

  it('caps one autocomplete session; lookups without a token are one session per client address', async () => {
    const limit = limits({ ADDRESS_LOOKUPS_PER_SESSION: 2 });
    expect(
      await answers(limit, [
        ['a', '1.1.1.1'],
        ['a', '2.2.2.2'],
        ['a', '1.1.1.1'],
        ['b', '1.1.1.1'],
      ]),
    ).toEqual([true, true, false, true]);
    expect(
      await answers(limit, [
        [undefined, '1.1.1.1'],
        [undefined, '1.1.1.1'],
        [undefined, '1.1.1.1'],
        [undefined, '2.2.2.2'],
      ]),
    ).toEqual([true, true, false, true]);
  });

  it("spends everyone's budget per minute across sessions and addresses", async () => {
    const limit = limits({ ADDRESS_LOOKUP_BUDGET_PER_MINUTE: 3 });
    expect(
      await answers(limit, [
        ['a', '1.1.1.1'],
        ['b', '2.2.2.2'],
        ['c', '3.3.3.3'],
        ['d', '4.4.4.4'],
      ]),
    ).toEqual([true, true, true, false]);
  });

  it("spends everyone's budget per day; a lookup a session's cap refused is not counted there", async () => {
    const limit = limits({ ADDRESS_LOOKUP_BUDGET_PER_DAY: 2, ADDRESS_LOOKUPS_PER_SESSION: 1 });
    expect(
      await answers(limit, [
        ['a', '1.1.1.1'],
        ['a', '1.1.1.1'],
        ['b', '1.1.1.1'],
        ['c', '1.1.1.1'],
      ]),
    ).toEqual([true, false, true, false]);
  });
});
