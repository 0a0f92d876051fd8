import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { AppStore } from './store';
import { theme } from './theme';

interface AppProviderProps {
  store: AppStore;
  children: ReactNode;
  /** 'test' turns off Mantine transitions and portals (unit tests). */
  env?: 'default' | 'test';
}

export function AppProvider({ store, children, env = 'default' }: AppProviderProps) {
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} env={env}>
        {children}
      </MantineProvider>
    </Provider>
  );
}
