import { useMediaQuery } from '@mantine/hooks';

/**
 * Below Mantine's `sm` breakpoint (48em) wide tables no longer fit, so list screens switch to a row list
 * (cards). Phones are 360-430 px wide.
 */
export const SMALL_SCREEN_QUERY = '(max-width: 47.99em)';

/** True on phones; read synchronously so a phone never renders the wide table first. */
export function useSmallScreen(): boolean {
  return useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
}
