import { Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface PageProps {
  title: string;
  children?: ReactNode;
}

/** A screen's heading (also the browser tab title) and its content. */
export function Page({ title, children }: PageProps) {
  useDocumentTitle(`${title} · IR Portal`);
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      {children}
    </Stack>
  );
}
