import { createElement, lazy, type ComponentType } from 'react';
import type { RemoteAppProps } from '@tyres/platform';
import { loadRemoteApp } from './remotes';
import type { AppName } from './runtime-config';

type AppComponent = ComponentType<RemoteAppProps>;
const components = new Map<AppName, AppComponent>();
const preloaded = new Map<AppName, AppComponent>();

/**
 * The staff app comes with its frame (antd theme and <App>, the shared react-router): both are fetched in
 * parallel and only when the dashboard is actually shown, so public pages never load antd or the router.
 */
async function loadDashboard(): Promise<{ default: AppComponent }> {
  const [frame, remote] = await Promise.all([import('./DashboardFrame'), loadRemoteApp('dashboard')]);
  const Remote = remote.default;
  const Frame = frame.DashboardFrame;
  function FramedDashboard(props: RemoteAppProps) {
    return createElement(Frame, null, createElement(Remote, props));
  }
  return { default: FramedDashboard };
}

/**
 * One component per remote, so re-renders and route changes never remount an app. A component registered
 * with preloadApp() (build-time prerendering) is rendered directly; otherwise React.lazy loads the remote.
 */
export function getLazyApp(app: AppName): AppComponent {
  let component = components.get(app);
  if (!component) {
    component =
      preloaded.get(app) ?? lazy(() => (app === 'dashboard' ? loadDashboard() : loadRemoteApp(app)));
    components.set(app, component);
  }
  return component;
}

/** Forget a failed load so the next render asks the MF runtime again (it drops failed entries itself). */
export function resetLazyApp(app: AppName): void {
  components.delete(app);
}

/** Prerendering: render this app's component directly (no remote loading on the server). */
export function preloadApp(app: AppName, component: AppComponent): void {
  preloaded.set(app, component);
  components.delete(app);
}
