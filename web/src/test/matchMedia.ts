import { vi } from 'vitest';

/** A MediaQueryList as jsdom lacks it; `matches` decides which queries hold. */
export function mediaQueryList(
  query: string,
  matches: (query: string) => boolean = () => false,
): MediaQueryList {
  return {
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  };
}
