import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

interface SectionProps {
  title: string;
  description?: string;
  children: ReactNode;
}

/** One part of the System Settings screen (the settings, then each tool), named by its heading. */
export function Section({ title, description, children }: SectionProps) {
  const id = useId();
  return (
    <Paper component="section" withBorder p={{ base: 'sm', sm: 'md' }} radius="md" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={3} id={id}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
