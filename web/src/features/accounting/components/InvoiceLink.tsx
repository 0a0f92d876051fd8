import { Anchor, Text } from '@mantine/core';
import { safeHttpUrl } from '@/lib/website';

/** An accounting line's text, a link to the accounting system when it has a (http) url. */
export function InvoiceLink({ text, url }: { text: string; url: string | null }) {
  const href = safeHttpUrl(url);
  if (!href) return <Text span>{text}</Text>;
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-word' }}>
      {text}
    </Anchor>
  );
}
