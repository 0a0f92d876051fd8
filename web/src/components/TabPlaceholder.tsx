import { Stack, Text, Title } from '@mantine/core';

interface TabPlaceholderProps {
  /** A heading above the text (the staff stock page's placeholders have one). */
  title?: string;
  text: string;
}

/** A stock page tab registered by a feature whose screen arrives with a later issue. */
export function TabPlaceholder({ title, text }: TabPlaceholderProps) {
  return (
    <Stack gap="xs" py={title ? 0 : 'md'}>
      {title && <Title order={3}>{title}</Title>}
      <Text c="dimmed">{text}</Text>
    </Stack>
  );
}
