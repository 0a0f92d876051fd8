import { RecordedExchange, RecordingProxy, startRecordingProxy } from './recording-proxy';
import { RequestVerdict, VendorContract, VENDOR_CONTRACT_SETUP_MS } from './vendor-contract';

/** What a contract spec's stand-in must offer the rig: where it answers and how it stops. */
export interface ContractStandIn {
  url: string;
  close(): Promise<void>;
}

export interface VendorContractRigOptions<S extends ContractStandIn> {
  /** The vendor's description (`VendorContract.load` or `VendorContract.loadProtos`). */
  load: () => VendorContract | Promise<VendorContract>;
  /** The stand-in, started (and seeded) as the spec needs it. */
  startStandIn: () => Promise<S>;
}

export interface VendorContractRig<S extends ContractStandIn> {
  /** Each available once the rig's `beforeAll` has run (in a test, or a `beforeAll` declared after it). */
  readonly contract: VendorContract;
  readonly standIn: S;
  /** In front of the stand-in: point the adapter at its `url`. */
  readonly proxy: RecordingProxy;
  /** The exchanges of one method whose path matches, as the proxy recorded them. */
  exchangesOf(method: string, path: RegExp): RecordedExchange[];
  /** One exchange checked against `operationId`, or the operation it matches (VendorContract.checkExchange). */
  problemsOf(exchange: RecordedExchange, operationId?: string): RequestVerdict;
  /**
   * The first recorded GET whose path matches, as copies a mismatch test may change: its reply's JSON body
   * (deep) and its request (query and headers copied).
   */
  firstReply(path: RegExp): Record<string, unknown>;
  firstRequest(path: RegExp): RecordedExchange['request'] & { query: Record<string, string | string[]> };
}

/**
 * The rig of a contract spec (ADR 0014), called in its `describe`: a `beforeAll` (with the
 * VENDOR_CONTRACT_SETUP_MS ceiling) loads the description, starts the stand-in and a recording proxy in
 * front of it, and an `afterAll` closes both. The spec's own `beforeAll`, declared after this call, points
 * its adapter at `proxy.url` and makes its calls.
 */
export function useVendorContract<S extends ContractStandIn>(
  options: VendorContractRigOptions<S>,
): VendorContractRig<S> {
  let contract: VendorContract | undefined;
  let standIn: S | undefined;
  let proxy: RecordingProxy | undefined;
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`The vendor contract's ${name} is not set up yet`);
    return value;
  };

  beforeAll(async () => {
    contract = await options.load();
    standIn = await options.startStandIn();
    proxy = await startRecordingProxy(standIn.url);
  }, VENDOR_CONTRACT_SETUP_MS);
  afterAll(async () => {
    await proxy?.close();
    await standIn?.close();
  });

  const rig: VendorContractRig<S> = {
    get contract() {
      return ready(contract, 'contract');
    },
    get standIn() {
      return ready(standIn, 'stand-in');
    },
    get proxy() {
      return ready(proxy, 'proxy');
    },
    exchangesOf: (method, path) => rig.proxy.exchangesOf(method, path),
    problemsOf: (exchange, operationId) => rig.contract.checkExchange(exchange, operationId),
    firstReply: (path) =>
      structuredClone(rig.exchangesOf('GET', path)[0]!.response.body) as Record<string, unknown>,
    firstRequest: (path) => {
      const { request } = rig.exchangesOf('GET', path)[0]!;
      return { ...request, query: { ...request.query }, headers: { ...request.headers } };
    },
  };
  return rig;
}
