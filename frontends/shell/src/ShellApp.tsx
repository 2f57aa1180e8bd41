import { Suspense, useState, useSyncExternalStore } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { RemoteAppProps } from '@tyres/platform';
import { locationKey, parseLocationKey, subscribeLocation } from './location';
import { homePathFor, pickApp } from './pick-app';
import { getLazyApp, resetLazyApp } from './lazy-apps';
import { RemoteBoundary } from './RemoteBoundary';
import type { AppConfig } from './runtime-config';

function Loading() {
  return (
    // Same markup as the boot spinner in index.html, so the hand-over is seamless.
    <div className="shell-loading" aria-busy="true">
      <div className="shell-boot-spinner" />
      <span className="shell-visually-hidden">Loading…</span>
    </div>
  );
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
  const RemoteApp = getLazyApp(app);
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
        <RemoteApp {...props} />
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
