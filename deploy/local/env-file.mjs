// The env file `up` writes and `down` reads: KEY=VALUE lines, `#` comments, values unquoted, so that
// `set -a; . FILE`, Make's `include` and readEnvFile all read it. Every .env file of the project is read
// with dotenv's parser (here, and in @irp/platform/testing), so there is one set of parsing rules.

import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { infraDir } from './shared.mjs';

/** The env file: the argument, else INFRA_ENV_FILE, else <INFRA_DIR>/infra.env. */
export function resolveEnvFile(envFile) {
  const f = envFile || process.env.INFRA_ENV_FILE;
  return f ? path.resolve(process.cwd(), f) : path.join(infraDir(), 'infra.env');
}

/** Reads a KEY=VALUE file (comments and blank lines ignored). Missing file: {}. */
export function readEnvFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  return dotenv.parse(text);
}

/** Writes the values (undefined and null left out) atomically: a reader never sees half a file. */
export function writeEnvFile(file, values) {
  const lines = [
    `# written by deploy/local/infra.mjs up at ${new Date().toISOString()}; removed by its down`,
  ];
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null) lines.push(`${k}=${v}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, lines.join('\n') + '\n');
  fs.renameSync(tmp, file);
}
