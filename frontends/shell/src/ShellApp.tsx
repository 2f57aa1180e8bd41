import { Suspense, useState, useSyncExternalStore } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { RemoteAppProps } from '@tyres/platform';
import { locationKey, parseLocationKey, subscribeLocation } from './location';
import { homePathFor, pickApp } from './pick-app';
import { getLazyApp, resetLazyApp } from './lazy-apps';
import { RemoteBoundary } from './RemoteBoundary';
import type { AppConfig, AppName } from './runtime-config';

function Loading() {
  return (
    // Same markup as the boot spinner in index.html, so the hand-over is seamless.
    <div className="shell-loading" aria-busy="true">
      <div className="shell-boot-spinner" />
      <span className="shell-visually-hidden">Loading…</span>
    </div>
  );
}

/**
 * The remote's component. It is taken once per mount (RemoteSwitch remounts this on a new app or a Retry), so it
 * is the same component on every render and the remote's state survives re-renders.
 */
function RemoteApp({ app, ...props }: RemoteAppProps & { app: AppName }) {
  const [Component] = useState(() => getLazyApp(app));
  return <Component {...props} />;
}

interface SwitchProps {
  config: AppConfig;
  /** Prerendering only: the URL being rendered. */
  serverLocation?: string;
  /** Prerendering only: the host the page is rendered for. */
  serverHostname?: string;
}

/** Picks the public or admin remote for the current location and renders it lazily. */
function RemoteSwitch({ config, serverLocation, serverHostname }: SwitchProps) {
  const key = useSyncExternalStore(
    subscribeLocation,
    locationKey,
    serverLocation === undefined ? locationKey : () => serverLocation,
  );
  const { pathname, search } = parseLocationKey(key);
  const hostname = serverHostname ?? window.location.hostname;
  const app = pickApp({ hostname, pathname, search }, config);
  const [attempt, setAttempt] = useState(0);
  const props: RemoteAppProps = {
    business: config.business,
    homePath: homePathFor(app, hostname, config),
    siteUrl: config.siteUrl,
    stripePublishableKey: config.stripePublishableKey,
    ...(serverLocation !== undefined ? { serverLocation } : {}),
  };

  return (
    <RemoteBoundary
      key={`${app}:${attempt}`}
      name={app}
      business={config.business}
      onRetry={() => {
        resetLazyApp(app);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={<Loading />}>
        <RemoteApp app={app} {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}

export interface ShellAppProps extends SwitchProps {
  queryClient: QueryClient;
}

/**
 * The host's providers: the one QueryClient every remote shares (react-query is a singleton). Toasts need no
 * provider (@tyres/platform/toast). The router belongs to each app: the dashboard gets the shared
 * react-router with its frame, the public site brings its own small one.
 */
export function ShellApp({ config, queryClient, serverLocation, serverHostname }: ShellAppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <RemoteSwitch config={config} serverLocation={serverLocation} serverHostname={serverHostname} />
    </QueryClientProvider>
  );
}
