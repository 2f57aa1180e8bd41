import { BrowserRouter } from 'react-router-dom';
import { injectStyles, type RemoteAppProps } from '@tyres/platform';
import { PublicSite } from './PublicSite';
import { PUBLIC_CSS } from './site/styles';

injectStyles('public', PUBLIC_CSS);

/**
 * The public site, exposed to the shell as ./App. It brings its own router: react-router is bundled here
 * (tree-shaken), not taken from the share scope, so the landing page does not download the whole shared
 * router (frontends/README.md, "Public site budget").
 */
export default function PublicApp(props: RemoteAppProps) {
  return (
    <BrowserRouter>
      <PublicSite {...props} />
    </BrowserRouter>
  );
}
