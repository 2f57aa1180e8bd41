/**
 * Build-time prerendering (scripts/prerender.mjs), bundled for Node by webpack.prerender.js. Renders the very
 * tree the browser hydrates (ShellApp -> public remote) for one URL, with the public remote's component
 * registered directly instead of loaded through Module Federation.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createQueryClient } from '@tyres/platform/query-client';
import {
  crawlablePages,
  headTags,
  publicCss,
  renderHeadTags,
  ServerPublicApp,
} from '../../../public/src/ssr';
import { preloadApp } from '../lazy-apps';
import { PRERENDER_INFO_ID, type PrerenderInfo } from '../prerender-info';
import { applyInput, defaultConfig, type AppConfig } from '../runtime-config';
import { ShellApp } from '../ShellApp';

preloadApp('public', ServerPublicApp);

export { crawlablePages, headTags, publicCss, renderHeadTags, PRERENDER_INFO_ID };
export type { PrerenderInfo };

/** The runtime configuration as the browser would see it with this config.json (remote URLs kept relative). */
export function configFrom(json: unknown): AppConfig {
  const base = () => 'http://prerender.invalid/';
  const config = applyInput(defaultConfig(base), json, 'config.json', base);
  for (const app of ['public', 'dashboard'] as const) {
    config.remotes[app] = config.remotes[app].replace(/^http:\/\/prerender\.invalid/, '');
  }
  return config;
}

export async function renderPage(path: string, config: AppConfig, hostname: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <ShellApp
        config={config}
        queryClient={createQueryClient()}
        serverLocation={path}
        serverHostname={hostname}
      />
    </StrictMode>,
    // One complete document, never streamed in chunks: a chunked boundary would need React's inline scripts to
    // finish the page, and the site's CSP forbids inline scripts (crawlers would see "Loading…").
    { progressiveChunkSize: Infinity },
  );
  return new Response(prelude).text();
}
