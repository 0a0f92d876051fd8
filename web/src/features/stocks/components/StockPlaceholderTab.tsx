import { Stack, Text, Title } from '@mantine/core';

/** A tab whose screen is built with its own feature (Market, Email marketing, Announcements, ...). */
export function StockPlaceholderTab({ title }: { title: string }) {
  return (
    <Stack gap="xs">
      <Title order={3}>{title}</Title>
      <Text c="dimmed">The {title} tab arrives with its feature.</Text>
    </Stack>
  );
}
