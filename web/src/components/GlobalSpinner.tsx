import { LoadingOverlay } from '@mantine/core';
import { useAppSelector } from '@/app/hooks';
import { selectIsGlobalLoading } from '@/lib/ui/uiSlice';

/** Covers the page while the global loading flag (ui slice) is set. */
export function GlobalSpinner() {
  const visible = useAppSelector(selectIsGlobalLoading);
  return (
    <LoadingOverlay
      visible={visible}
      data-testid="global-spinner"
      pos="fixed"
      zIndex={1000}
      overlayProps={{ blur: 1 }}
      loaderProps={{ 'aria-label': 'Loading' }}
    />
  );
}
