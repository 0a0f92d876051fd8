import { z } from 'zod';

/**
 * Fault injection of a stand-in: rules a test (or a person beside `make up`) sets per route to see how an
 * adapter copes with a slow, failing, rate-limiting or hanging vendor. A rule names a route (its name or
 * group, '*' for every faultable route), optionally a key the route derives from the request (the ASX
 * stand-in's ticker), and how many requests it applies to (`times`; absent: until cleared). A hold holds
 * every matching request until its rule is cleared (that releases them) or its maxMs has passed.
 */
export const faultRuleSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('delay'),
    route: z.string().min(1).default('*'),
    key: z.string().min(1).optional(),
    times: z.number().int().min(0).optional(),
    ms: z.number().int().min(0).max(600_000),
  }),
  z.object({
    kind: z.literal('fail'),
    route: z.string().min(1).default('*'),
    key: z.string().min(1).optional(),
    times: z.number().int().min(0).optional(),
    status: z.number().int().min(400).max(599).default(500),
    /** Sent as Retry-After (seconds); a 429 without it gets 1. */
    retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  }),
  z.object({
    kind: z.literal('hold'),
    route: z.string().min(1).default('*'),
    key: z.string().min(1).optional(),
    /** The longest a request is held; absent: until the rule is cleared or the stand-in closes. */
    maxMs: z.number().int().min(1).max(600_000).optional(),
  }),
]);
export type FaultRule = z.infer<typeof faultRuleSchema>;
/** A rule as callers write it (route defaults to '*'). */
export type FaultRuleInput = z.input<typeof faultRuleSchema>;

/** What one request meets, in order: held, then delayed, then failed. */
export interface FaultPlan {
  hold?: { maxMs?: number; rule: FaultRule };
  delayMs?: number;
  fail?: { status: number; retryAfterSeconds?: number };
}

/** The route of a request as the rules see it. */
export interface FaultTarget {
  name: string;
  group?: string;
  key?: string;
}

const sameSlot = (a: FaultRule, b: FaultRule) => a.kind === b.kind && a.route === b.route && a.key === b.key;

const applies = (rule: FaultRule, target: FaultTarget) =>
  (rule.route === '*' || rule.route === target.name || rule.route === target.group) &&
  (rule.key === undefined || rule.key === target.key);

/** The rules of one stand-in. Setting a rule replaces the one of the same kind, route and key. */
export class FaultRules {
  private rules: FaultRule[] = [];
  private readonly listeners = new Set<() => void>();

  set(input: FaultRuleInput): FaultRule {
    const rule = faultRuleSchema.parse(input);
    this.rules = this.rules.filter((r) => !sameSlot(r, rule));
    if (!('times' in rule) || rule.times !== 0) this.rules.push(rule);
    this.changed();
    return rule;
  }

  /**
   * Removes the rules matching `filter` (all without one); held requests whose rule is gone go on. A `key`
   * property present (even undefined) must match exactly: clearing the keyless hold keeps a ticker's.
   */
  clear(filter: Partial<Pick<FaultRule, 'kind' | 'route' | 'key'>> = {}): void {
    this.rules = this.rules.filter(
      (r) =>
        !(
          (filter.kind === undefined || r.kind === filter.kind) &&
          (filter.route === undefined || r.route === filter.route) &&
          (!('key' in filter) || r.key === filter.key)
        ),
    );
    this.changed();
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Whether `rule` is still set (a held request waits while it is). */
  active(rule: FaultRule): boolean {
    return this.rules.includes(rule);
  }

  /** Called on every change (held requests re-check their rule). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The faults one request meets; counted rules use up one of their `times`. */
  take(target: FaultTarget): FaultPlan {
    const plan: FaultPlan = {};
    for (const kind of ['hold', 'delay', 'fail'] as const) {
      const rule = this.rules.find((r) => r.kind === kind && applies(r, target));
      if (!rule) continue;
      if (rule.kind !== 'hold') this.use(rule);
      if (rule.kind === 'hold') plan.hold = { maxMs: rule.maxMs, rule };
      else if (rule.kind === 'delay') plan.delayMs = rule.ms;
      else plan.fail = { status: rule.status, retryAfterSeconds: rule.retryAfterSeconds };
    }
    return plan;
  }

  /** One use of a counted rule: the last one removes it. */
  private use(rule: Exclude<FaultRule, { kind: 'hold' }>): void {
    if (rule.times === undefined) return;
    const i = this.rules.indexOf(rule);
    if (i < 0) return;
    if (rule.times <= 1) this.rules.splice(i, 1);
    else this.rules[i] = { ...rule, times: rule.times - 1 };
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Rules from the environment: STANDIN_FAULTS, a JSON list of rules, e.g.
 * `[{"kind":"fail","route":"feed","status":503,"times":3}]`, so `make up` can start a misbehaving vendor.
 */
export function faultsFromEnv(env: NodeJS.ProcessEnv = process.env): FaultRuleInput[] {
  const text = env.STANDIN_FAULTS?.trim();
  if (!text) return [];
  const parsed = z.array(faultRuleSchema).safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`STANDIN_FAULTS: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
