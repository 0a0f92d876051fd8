import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchOptions } from 'playwright-core';

/** The unprivileged account Chromium runs as when the poller itself runs as root (nobody on Debian). */
const UNPRIVILEGED_UID = 65534;

let rootWrapper: string | undefined;

/**
 * Chromium's launch options, always with its sandbox on (playwright-core passes --no-sandbox unless told
 * otherwise): a page it renders is a third party's.
 *
 * Chromium refuses its sandbox when run as root (the image runs as `node`, but a poller started by hand or
 * in this repository's containers may be root). Instead of --no-sandbox, it is then started through a small
 * wrapper that hands it Playwright's profile folder and drops to the unprivileged user with setpriv
 * (util-linux, part of Debian), where Chromium's namespace sandbox works as for any user.
 */
/**
 * Chromium connects nowhere itself (issue 34): every HTTP request is routed to the guarded vendor client and
 * every WebSocket closed (document-fetcher.ts); anything else it would open on its own (a scheme or channel a
 * route does not see, a DNS prefetch) goes to a proxy on a port nothing listens on, loopback included (Chromium
 * skips the proxy for loopback unless told), and WebRTC sends no UDP outside a proxy.
 */
const NO_CONNECTIONS_OF_ITS_OWN = [
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
];

export function sandboxedLaunchOptions(executablePath: string): LaunchOptions {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  // A missing browser is reported by playwright-core at once, naming the path asked for, not the wrapper.
  return {
    executablePath: root && existsSync(executablePath) ? unprivilegedWrapper(executablePath) : executablePath,
    headless: true,
    chromiumSandbox: true,
    args: NO_CONNECTIONS_OF_ITS_OWN,
  };
}

function unprivilegedWrapper(executablePath: string): string {
  if (rootWrapper) return rootWrapper;
  const folder = mkdtempSync(join(tmpdir(), 'irp-chromium-'));
  const wrapper = join(folder, 'chromium');
  const quoted = `'${executablePath.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      '# Written by services/announcements/src/sources/chromium-launch.ts: Chromium as an unprivileged user.',
      'for arg in "$@"; do',
      '  case "$arg" in',
      `    --user-data-dir=*) chown -R ${UNPRIVILEGED_UID}:${UNPRIVILEGED_UID} "\${arg#--user-data-dir=}" ;;`,
      '  esac',
      'done',
      `exec setpriv --reuid=${UNPRIVILEGED_UID} --regid=${UNPRIVILEGED_UID} --clear-groups env HOME=/tmp ${quoted} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  rootWrapper = wrapper;
  return wrapper;
}
