import { use, type ComponentType, type ReactNode } from 'react';

/** A tab component loaded on first use, which can also be loaded ahead (see TabRegistry.preload). */
export type LazyTab<P> = ((props: P) => ReactNode) & { preload: () => Promise<unknown> };

/**
 * A tab screen as a chunk of its own:
 * `lazyTab(() => import('./components/MarketTab').then((m) => m.MarketTab))`.
 * Unlike React.lazy it renders without suspending once preloaded, so a page whose tabs the router loaded
 * with the page shows its title and its tab in the same first paint.
 */
export function lazyTab<P extends object>(load: () => Promise<ComponentType<P>>): LazyTab<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;

  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed chunk download is tried again on the next render, not remembered.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  function LazyTabScreen(props: P) {
    // `use` suspends on the one cached promise until the chunk is there (the page's Suspense shows a loader).
    const Screen = loaded ?? use(preload());
    return <Screen {...props} />;
  }
  return Object.assign(LazyTabScreen, { preload });
}
