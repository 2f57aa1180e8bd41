import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { App as AntApp, ConfigProvider } from 'antd';
import { TOAST_CONFIG } from '@tyres/platform/toast';
import { theme } from '@tyres/platform/theme';

/**
 * What the staff app expects around it (frontends/README.md): the shared react-router's BrowserRouter, antd's
 * theme and its <App> (for App.useApp() modal/message). Loaded with the dashboard remote only; antd and the
 * shared router are singletons, so the remote's copies are these.
 */
export function DashboardFrame({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme}>
      <AntApp notification={TOAST_CONFIG}>
        <BrowserRouter>{children}</BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
