import { createElement, lazy, type ComponentType } from 'react';
import type { RemoteAppProps } from '@tyres/platform';
import { loadRemoteApp } from './remotes';
import { REMOTE_LOAD_RETRY, withRetry, type RetryOptions } from './retry';
import type { AppName } from './runtime-config';

type AppComponent = ComponentType<RemoteAppProps>;
const components = new Map<AppName, AppComponent>();
const preloaded = new Map<AppName, AppComponent>();
let retryOptions: RetryOptions = REMOTE_LOAD_RETRY;

/** Tests: shorter or counted delays. */
export function setRemoteRetry(options: RetryOptions): void {
  retryOptions = options;
}

/**
 * One remote's load, tried again with backoff before the error page shows (a network blip or a deploy in progress
 * is usually over in a few seconds). The Module Federation runtime drops a failed entry, so each try asks again.
 */
function loadWithRetry<T>(app: AppName, load: () => Promise<T>): Promise<T> {
  return withRetry(load, {
    ...retryOptions,
    onRetry: (error, retry, delayMs) => {
      console.warn(`[shell] loading remote "${app}" failed; retry ${retry} in ${delayMs} ms`, error);
    },
  });
}

/**
 * The staff app comes with its frame (antd theme and <App>, the shared react-router): both are fetched in
 * parallel and only when the dashboard is actually shown, so public pages never load antd or the router.
 */
async function loadDashboard(): Promise<{ default: AppComponent }> {
  const [frame, remote] = await Promise.all([
    loadWithRetry('dashboard', () => import('./DashboardFrame')),
    loadWithRetry('dashboard', () => loadRemoteApp('dashboard')),
  ]);
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
      preloaded.get(app) ??
      lazy(() => (app === 'dashboard' ? loadDashboard() : loadWithRetry(app, () => loadRemoteApp(app))));
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
