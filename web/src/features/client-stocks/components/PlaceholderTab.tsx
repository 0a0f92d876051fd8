import { Text } from '@mantine/core';
import type { ClientStockTabKey } from '../model/tabs';

const MESSAGES: Record<Exclude<ClientStockTabKey, 'config'>, string> = {
  announcements: 'Announcements arrive with the announcements feature.',
  'email-marketing': 'Email marketing settings arrive with the email-marketing feature.',
  comments: 'Comments arrive with the comments feature.',
};

/** A tab whose screen is built by its own feature (a later issue). */
export function PlaceholderTab({ tab }: { tab: Exclude<ClientStockTabKey, 'config'> }) {
  return (
    <Text c="dimmed" py="md">
      {MESSAGES[tab]}
    </Text>
  );
}
