import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

interface SectionProps {
  title: string;
  description?: string;
  /**
   * The heading's level: 3 on a screen of its own (System Settings, the accounting page), 4 on a stock
   * page's tab, whose tab strip sits between the page title and the sections.
   */
  order?: 3 | 4;
  children: ReactNode;
}

/** One bordered part of a screen, named by its heading (the region's accessible name). */
export function Section({ title, description, order = 3, children }: SectionProps) {
  const id = useId();
  return (
    <Paper component="section" withBorder p={{ base: 'sm', sm: 'md' }} radius="md" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={order} id={id}>
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
