import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createQueryClient } from '@tyres/platform/query-client';
import { pickApp } from './pick-app';
import { normalizePath, readPrerenderInfo, sameBusiness } from './prerender-info';
import type { AppConfig } from './runtime-config';
import { ShellApp } from './ShellApp';

export function mount(config: AppConfig): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const tree = (
    <StrictMode>
      <ShellApp config={config} queryClient={createQueryClient()} />
    </StrictMode>
  );
  const info = readPrerenderInfo(document);
  const { hostname, pathname, search } = window.location;
  const hydrate =
    info !== null &&
    container.dataset.prerendered !== undefined &&
    normalizePath(info.path) === normalizePath(pathname) &&
    pickApp({ hostname, pathname, search }, config) === 'public' &&
    sameBusiness(info.business, config.business);
  if (hydrate) {
    // As a transition, hydration is time-sliced: the prerendered page stays responsive (no long task while
    // React attaches to it), and a tap on a not-yet-hydrated part is replayed once that part is hydrated.
    startTransition(() => {
      hydrateRoot(container, tree);
    });
  } else {
    // Not this page's HTML (the SPA fallback, another app, other business details): render from scratch.
    delete container.dataset.prerendered;
    createRoot(container).render(tree);
  }
}
