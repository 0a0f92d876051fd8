import { repoRoot } from '@irp/platform';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The mail inbox of `make up` and the browser tests: maildev (npm), a real SMTP server whose web app shows
 * every mail the portal sent. Run by the stack as the `mail-inbox` stand-in: the web app (and /api/healthz)
 * on MAIL_INBOX_PORT, SMTP on MAIL_INBOX_SMTP_PORT, both on 127.0.0.1 only.
 */
const env = z
  .object({
    MAIL_INBOX_PORT: z.coerce.number().int().min(1).max(65_535).default(3253),
    MAIL_INBOX_SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(3254),
  })
  .parse(process.env);

// maildev is an ES module package that exports no subpaths: its bin is found in the workspace's node_modules.
const bin = join(repoRoot(), 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');
const child = spawn(
  process.execPath,
  [
    bin,
    '--smtp',
    String(env.MAIL_INBOX_SMTP_PORT),
    '--web',
    String(env.MAIL_INBOX_PORT),
    '--ip',
    '127.0.0.1',
    '--web-ip',
    '127.0.0.1',
    '--max-emails',
    '5000',
    // Each inbox keeps its mails apart (make up and make test may run side by side).
    '--mail-directory',
    join(repoRoot(), '.local', 'mail-inbox', String(env.MAIL_INBOX_PORT)),
  ],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
