import { Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import classes from './ReportPage.module.css';

interface ReportSectionProps {
  title: string;
  /** 3 for the report's sections, 4 for a part of one (a peer's broker activity). */
  order?: 3 | 4;
  testId?: string;
  children: ReactNode;
}

/** A section of the report, named by its heading (a landmark for screen readers, one block on paper). */
export function ReportSection({ title, order = 3, testId, children }: ReportSectionProps) {
  const headingId = useId();
  return (
    <Stack
      component="section"
      gap="sm"
      aria-labelledby={headingId}
      className={classes.section}
      data-testid={testId}
    >
      <Title order={order} id={headingId}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}
