import { Group, Text, Tooltip } from '@mantine/core';
import type { Announcement } from '@irp/proto';
import type { ReactNode } from 'react';
import { flagsOf, type AnnouncementFlag, type FlagKind } from '../model/announcements';

const stroke = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

// Inline outline icons: the app has no icon library, and emoji glyphs are missing from some systems'
// fonts (a server's Chromium among them).
const PATHS: Readonly<Record<FlagKind, ReactNode>> = {
  sent: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </>
  ),
  sendRequested: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 3" />
    </>
  ),
  priceSensitive: (
    <>
      <path d="M16 8c-.6-1.2-2-2-4-2-2.5 0-4 1.3-4 3s1.5 2.5 4 3 4 1.3 4 3-1.5 3-4 3c-2 0-3.4-.8-4-2" />
      <path d="M12 3v3M12 18v3" />
    </>
  ),
  deleted: (
    <>
      <path d="M4 7h16M10 11v6M14 11v6" />
      <path d="M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </>
  ),
  originalHeadline: (
    <>
      <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4" />
      <path d="M13.5 6.5l4 4" />
    </>
  ),
  fileProblem: (
    <>
      <path d="M12 4l9 16H3z" />
      <path d="M12 10v4M12 17v.01" />
    </>
  ),
  autoSend: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M10 9v6M14 9v6" />
    </>
  ),
};

const COLORS: Readonly<Record<FlagKind, string>> = {
  sent: 'var(--mantine-color-green-7)',
  sendRequested: 'var(--mantine-color-blue-7)',
  priceSensitive: 'var(--mantine-color-red-7)',
  deleted: 'var(--mantine-color-gray-7)',
  originalHeadline: 'var(--mantine-color-violet-7)',
  fileProblem: 'var(--mantine-color-orange-7)',
  autoSend: 'var(--mantine-color-yellow-8)',
};

function FlagIcon({ flag }: { flag: AnnouncementFlag }) {
  const tooltip =
    flag.details.length > 0 ? (
      <div>
        <div>{flag.label}</div>
        {flag.details.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </div>
    ) : (
      flag.label
    );
  return (
    <Tooltip label={tooltip} withArrow multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
      <span
        role="img"
        aria-label={flag.label}
        data-flag={flag.kind}
        // Focusable so keyboard and touch users reach the tooltip too.
        tabIndex={0}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 2, color: COLORS[flag.kind] }}
      >
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
          {PATHS[flag.kind]}
        </svg>
        {flag.count !== undefined && flag.count > 0 && (
          <Text span size="xs" aria-hidden="true">
            {flag.count}
          </Text>
        )}
      </span>
    </Tooltip>
  );
}

/** The row's icons (spec section 2): sent, price sensitive, deleted, original headline, and problems. */
export function AnnouncementIcons({ announcement }: { announcement: Announcement }) {
  const flags = flagsOf(announcement);
  if (flags.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap" component="span" style={{ display: 'inline-flex' }}>
      {flags.map((flag) => (
        <FlagIcon key={flag.kind} flag={flag} />
      ))}
    </Group>
  );
}
