// The jest environment of integration test files (jest.preset.js `integration`): node's, plus the end of
// what the file started. Service and stand-in processes the file's modules start are registered on its
// global object (service-process.ts `adopt`); when the file ends, after its own afterAll hooks, any still
// running is stopped, and any started later (set-up that timed out but goes on) is killed at once.
// With IRP_FILE_CPU_LOG set (scripts/test.mjs), each file's CPU-seconds (its cgroup's, so the processes it
// started are counted; one file at a time, --runInBand) and wall time are appended there as a JSON line.
const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const { ownCgroupCpuSeconds } = require('../../../../scripts/testing/cgroup-cpu.cjs');

const STOP_GRACE_MS = 5_000;
const REPO_ROOT = path.resolve(__dirname, '../../../..');

class IntegrationEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.defaultTimeout = config.globalConfig?.testTimeout;
    this.testPath = context.testPath;
  }

  async setup() {
    this.startedCpu = process.env.IRP_FILE_CPU_LOG ? ownCgroupCpuSeconds() : undefined;
    this.startedAt = Date.now();
    await super.setup();
    this.global.__irpFileChildren = new Set();
    this.global.__irpFileEnded = false;
  }

  /**
   * When the running test or hook must end (the runner's own limit), on the file's global object: waits in
   * the file (patience.ts) go on until just before it, whatever shorter time they name.
   */
  handleTestEvent(event) {
    const started =
      event.name === 'hook_start' ? event.hook : event.name === 'test_fn_start' ? event.test : null;
    if (!started) return;
    const timeout =
      started.timeout ?? this.global[Symbol.for('TEST_TIMEOUT_SYMBOL')] ?? this.defaultTimeout ?? 5_000;
    this.global.__irpLimitEnd = Date.now() + timeout;
  }

  async teardown() {
    this.global.__irpFileEnded = true;
    const left = [...this.global.__irpFileChildren];
    await Promise.all(left.map(stop));
    await super.teardown();
    this.logFileCpu();
  }

  /** The file's CPU-seconds and wall time, for the run's summary of the costliest files. */
  logFileCpu() {
    const log = process.env.IRP_FILE_CPU_LOG;
    const ended = log && this.startedCpu !== undefined ? ownCgroupCpuSeconds() : undefined;
    if (ended === undefined) return;
    const line = {
      file: path.relative(REPO_ROOT, this.testPath),
      cpuSeconds: Math.round((ended - this.startedCpu) * 10) / 10,
      wallMs: Date.now() - this.startedAt,
    };
    fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
  }
}

/** SIGTERM, then SIGKILL if it has not exited within the grace period. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

module.exports = IntegrationEnvironment;
