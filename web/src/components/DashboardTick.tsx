/**
 * A tick or a cross for a yes/no column (dashboards); '–' when the value is unknown (a contributing
 * service did not answer). Plain elements: dashboards render thousands of these.
 */
export function DashboardTick({ value }: { value: boolean | null | undefined }) {
  if (value === null || value === undefined) {
    return (
      <span role="img" aria-label="Unknown" style={{ color: 'var(--mantine-color-dimmed)' }}>
        –
      </span>
    );
  }
  return value ? (
    <span role="img" aria-label="Yes" style={{ color: 'var(--mantine-color-green-7)' }}>
      ✓
    </span>
  ) : (
    <span role="img" aria-label="No" style={{ color: 'var(--mantine-color-red-7)' }}>
      ✗
    </span>
  );
}
