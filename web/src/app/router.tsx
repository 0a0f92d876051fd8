import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { CenteredLoader } from '@/components/CenteredLoader';
import { RouteError } from '@/components/RouteError';
import { LoginRoute } from '@/features/auth/routes/LoginRoute';
import { clientStockTabs, staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { RootLayout } from './layout/RootLayout';
import { HomeRoute } from './routes/HomeRoute';
import { NotFoundRoute } from './routes/NotFoundRoute';
import { RequireAuth } from './routes/RequireAuth';
import { RequireEditUsers } from './routes/RequireEditUsers';
import './tabs';

/**
 * A route whose screen is a separate chunk, loaded on first visit; `preload` loads more with it (a stock
 * page's tab chunks, so the page's first paint has its tab).
 */
function screen<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  exportName: K,
  preload?: () => Promise<void>,
): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const [module] = await Promise.all([load(), preload?.()]);
      return { Component: module[exportName] };
    },
  };
}

/** The route table of spec section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <CenteredLoader />,
    children: [
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <HomeRoute /> },
          {
            path: 'stocks/:combinedTicker/:tab?',
            ...screen(
              () => import('@/features/stocks/routes/StockRoute'),
              'StockRoute',
              staffStockTabs.preload,
            ),
          },
          {
            path: 'create',
            ...screen(
              () => import('@/features/stocks/routes/CreateStockRoute'),
              'CreateStockRoute',
              staffStockTabs.preload,
            ),
          },
          {
            path: 'system-settings',
            ...screen(
              () => import('@/features/system-settings/routes/SystemSettingsRoute'),
              'SystemSettingsRoute',
            ),
          },
          {
            path: 'accounting-page',
            ...screen(() => import('@/features/accounting/routes/AccountingRoute'), 'AccountingRoute'),
          },
          {
            path: 'orders',
            ...screen(
              () => import('@/features/service-orders/routes/ServiceOrdersRoute'),
              'ServiceOrdersRoute',
            ),
          },
          {
            path: 'users',
            element: <RequireEditUsers />,
            children: [
              { index: true, ...screen(() => import('@/features/users/routes/UsersRoute'), 'UsersRoute') },
            ],
          },
          {
            path: 'users/:id',
            ...screen(() => import('@/features/users/routes/EditUserRoute'), 'EditUserRoute'),
          },
          {
            path: 'referers',
            ...screen(() => import('@/features/referers/routes/ReferersRoute'), 'ReferersRoute'),
          },
          {
            path: 'AnnouncementComments/:combinedTicker/:sendGuid?',
            ...screen(
              () => import('@/features/announcement-comments/routes/AnnouncementCommentsRoute'),
              'AnnouncementCommentsRoute',
            ),
          },
          {
            path: 'AnnouncementCommentResponse/:guid',
            ...screen(
              () => import('@/features/comment-response/routes/CommentResponseRoute'),
              'CommentResponseRoute',
            ),
          },
          {
            path: 'client-stocks/:combinedTicker',
            ...screen(
              () => import('@/features/client-stocks/routes/ClientStockRoute'),
              'ClientStockRoute',
              clientStockTabs.preload,
            ),
          },
        ],
      },
      {
        path: 'report/:guid',
        ...screen(() => import('@/features/reports/routes/ReportRoute'), 'ReportRoute'),
      },
      {
        path: 'new-order/:id?',
        ...screen(() => import('@/features/order-form/routes/OrderFormRoute'), 'OrderFormRoute'),
      },
      {
        path: 'subscription/confirm/:token',
        ...screen(
          () => import('@/features/subscriptions/routes/ConfirmSubscriptionRoute'),
          'ConfirmSubscriptionRoute',
        ),
      },
      {
        path: 'subscription/unsubscribe/:token',
        ...screen(() => import('@/features/subscriptions/routes/UnsubscribeRoute'), 'UnsubscribeRoute'),
      },
      {
        path: 'subscription/preferences/:token',
        ...screen(() => import('@/features/subscriptions/routes/PreferencesRoute'), 'PreferencesRoute'),
      },
      { path: 'login', element: <LoginRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];
