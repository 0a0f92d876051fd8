// The command line of infra.mjs: `<command> [--env FILE] [--database NAME] [--no-topics] [--kafka-port N]
// [--controller-port N] [--pg-port N]`.

export const USAGE =
  'usage: node deploy/local/infra.mjs up|down|topics|database|status [--env FILE | -- --env-file FILE] [--database NAME] [--no-topics]\n       [--kafka-port N] [--controller-port N] [--pg-port N]';

/** Returns { command, opts } with opts in the shape up/down/status take. */
export function parseArgs(argv) {
  const opts = {};
  const rest = [];
  const ports = { 'kafka-port': 'kafkaPort', 'controller-port': 'controllerPort', 'pg-port': 'pgPort' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') continue;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) {
      rest.push(a);
      continue;
    }
    const [, key, inline] = m;
    if (key === 'no-topics') {
      opts.topics = false;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    // `--env` is an alias: Node 20 itself reads a script's `--env-file X` and exits 9 when X does not exist
    // yet (nodejs/node#54232), so a first `up` needs `--env X`, `-- --env-file X` or INFRA_ENV_FILE.
    if (key === 'env-file' || key === 'env') opts.envFile = value;
    else if (key === 'database') opts.database = value;
    else if (ports[key]) opts[ports[key]] = Number(value);
    else throw new Error(`unknown option --${key}`);
  }
  return { command: rest[0], opts };
}
