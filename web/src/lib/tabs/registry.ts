import type { ComponentType } from 'react';

/** One tab a feature contributes to a page (see web/README.md, "Tabs from features"). */
export interface TabDefinition<Access, Props extends object> {
  /** The tab's address: the URL segment or `?tab=` value that opens it; unique on its page. */
  key: string;
  /** The tab's label, exactly as the spec names it. */
  title: string;
  /** Position among the page's tabs: lower first. */
  order: number;
  /** Whether the user may see the tab (roles; on the client page also the roles on that stock). */
  allowed: (access: Access) => boolean;
  /** The tab's screen; usually `lazyTab(...)` so it is a chunk of its own. */
  component: ComponentType<Props> & { preload?: () => Promise<unknown> };
  /**
   * Whether the page shows its Save button on this tab. A saving tab hands the page what to save with
   * `useTabSave`; one that registers nothing answers 'Nothing to Save'.
   */
  saves: boolean;
  /** Other names a link may use for the tab (compared ignoring case, spaces, '-' and '_'). */
  aliases?: readonly string[];
}

export interface TabRegistry<Access, Props extends object> {
  /** Adds tabs; a key already registered is an error (two features claiming one address). */
  register: (...tabs: TabDefinition<Access, Props>[]) => void;
  /** Every registered tab, in order. */
  all: () => readonly TabDefinition<Access, Props>[];
  /** The tabs `access` may see, in order. */
  allowed: (access: Access) => TabDefinition<Access, Props>[];
  /** The tab a name means: its key, its title or an alias, ignoring case, spaces, '-' and '_'. */
  find: (name: string | null | undefined) => TabDefinition<Access, Props> | undefined;
  /** Loads every lazy tab's chunk (the router does so with the page, so the first paint has the tab). */
  preload: () => Promise<void>;
}

const canonical = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/**
 * A page's tab registry. The page renders whatever is registered; features register into it from their
 * `tabs.ts`, which the composition root (app/tabs.ts) imports once, so the page never imports them.
 */
export function createTabRegistry<Access, Props extends object>(page: string): TabRegistry<Access, Props> {
  let tabs: TabDefinition<Access, Props>[] = [];

  return {
    register(...added) {
      for (const tab of added) {
        if (tabs.some((t) => t.key === tab.key)) {
          // Vite's hot reload runs a changed tabs.ts again: replace rather than fail there.
          if (!import.meta.hot) throw new Error(`The ${page} already has a tab '${tab.key}'`);
          tabs = tabs.filter((t) => t.key !== tab.key);
        }
        tabs = [...tabs, tab].sort((a, b) => a.order - b.order);
      }
    },
    all: () => tabs,
    allowed: (access) => tabs.filter((tab) => tab.allowed(access)),
    find(name) {
      const wanted = canonical(name ?? '');
      if (!wanted) return undefined;
      return tabs.find((tab) =>
        [tab.key, tab.title, ...(tab.aliases ?? [])].some((n) => canonical(n) === wanted),
      );
    },
    async preload() {
      await Promise.all(tabs.map((tab) => tab.component.preload?.()));
    },
  };
}
