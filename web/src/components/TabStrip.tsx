import { Center, Loader, Tabs } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';

/** A tab's screen, with a loader while its chunk downloads (the router usually preloads it). */
export function TabSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label="Loading tab" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

interface TabStripProps {
  /** The tabs in order (a page's registered tabs the user may see). */
  tabs: readonly { key: string; title: string }[];
  active: string;
  onChange: (key: string) => void;
  /** The active tab's screen; the other tabs are not mounted. */
  children: ReactNode;
}

/** A stock page's tab list with the active tab's screen below it. */
export function TabStrip({ tabs, active, onChange, children }: TabStripProps) {
  return (
    <Tabs value={active} onChange={(value) => value && onChange(value)} keepMounted={false}>
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.key} value={tab.key}>
            {tab.title}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.key} value={tab.key} pt="md">
          {tab.key === active && <TabSuspense>{children}</TabSuspense>}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
