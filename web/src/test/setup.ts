import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import '@/app/tabs';
import { clientStockTabs, staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { mediaQueryList } from './matchMedia';

// Screens are lazy chunks: on a busy 2-core CI machine the first import of one can take over the default
// 1 s that findBy*/waitFor wait (a screen's first import took over 5 s beside the other lanes and three more
// test runs). A longer ceiling costs nothing when things are quick; the test's own limit is 20 s.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

// Mantine's transitions finish on timers (a few hundred ms) after the last test of a file unmounts them; on a
// busy machine one could fire after vitest tore the file's jsdom down ('window is not defined'). Letting any
// such timer run out first keeps each file's work inside its own environment.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 500)));

// jsdom lacks these browser APIs that Mantine uses.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: vi.fn((query: string) => mediaQueryList(query)),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Highcharts (the report page's charts) asks CSS.supports at import; jsdom's CSS object lacks it.
if (typeof window.CSS?.supports !== 'function') {
  Object.defineProperty(window, 'CSS', {
    configurable: true,
    value: { ...window.CSS, supports: () => false },
  });
}
window.scrollTo = () => {};

// fetchBaseQuery builds a `Request` from '/api/...'; Node's Request (jsdom has none) rejects relative URLs,
// so resolve them against the page as a browser would.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
}
globalThis.Request = PageRequest;

// Every feature's stock page tabs are registered (app/tabs.ts) and, as the router does for the app, their
// chunks loaded before a test renders a page. In beforeAll, not at the top: the test file's vi.mock calls
// must be in place before the tab modules import what they mock.
beforeAll(() => Promise.all([staffStockTabs.preload(), clientStockTabs.preload()]));
