/**
 * Build-time prerendering entry (frontends/shell/scripts/prerender.mjs): the same site the browser hydrates,
 * under a StaticRouter, plus the list of crawlable pages and their <head>. Never part of the browser bundle.
 */
import { StaticRouter } from 'react-router-dom';
import type { RemoteAppProps } from '@tyres/platform';
import { PublicSite } from './PublicSite';
import { PUBLIC_CSS } from './site/styles';

export { crawlablePages } from './site/meta';
export { headTags, renderHeadTags } from './site/head';

export const publicCss: string = PUBLIC_CSS;

export function ServerPublicApp(props: RemoteAppProps) {
  return (
    <StaticRouter location={props.serverLocation ?? '/'}>
      <PublicSite {...props} />
    </StaticRouter>
  );
}
