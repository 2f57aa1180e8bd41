import path from 'node:path';
import fs from 'node:fs';
import express, { type RequestHandler, type Router } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

export const REMOTE_PREFIXES = { public: '/remotes/public', dashboard: '/remotes/dashboard' } as const;

/** Files whose names carry no content hash must be revalidated, or a deploy would leave browsers on old code. */
const UNHASHED = /(^|\/)(index\.html|remoteEntry\.js|mf-manifest\.json|mf-stats\.json|config\.json)$/;

function cacheHeaders(res: express.Response, filePath: string) {
  if (UNHASHED.test(filePath.replace(/\\/g, '/'))) res.setHeader('Cache-Control', 'no-cache');
  else res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}

const isPageRequest: (req: express.Request) => boolean = (req) =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  !req.path.startsWith('/api/') &&
  !req.path.startsWith('/ws/') &&
  !req.path.startsWith('/remotes/') &&
  // A missing file asked for by name (/main.abc.js) is a 404, never HTML (frontends/README.md).
  path.extname(req.path) === '' &&
  req.accepts(['html', 'json']) === 'html';

/** A prerendered page of the shell build: <dist>/<path>/index.html, or undefined. Plain path segments only. */
function prerenderedPage(shellDist: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) return undefined;
  const file = path.join(shellDist, ...segments, 'index.html');
  return file.startsWith(shellDist + path.sep) && fs.existsSync(file) ? file : undefined;
}

/** Serves the built front ends from frontends/<name>/dist (local runs, CI). */
export function staticFrontends(repoRoot: string): Router {
  const router = express.Router();
  const dist = (name: string) => path.join(repoRoot, 'frontends', name, 'dist');
  const options = { index: false, fallthrough: true, setHeaders: cacheHeaders } as const;
  router.use(REMOTE_PREFIXES.public, express.static(dist('public'), options));
  router.use(REMOTE_PREFIXES.dashboard, express.static(dist('dashboard'), options));
  // redirect: false: prerendered pages are folders (about/index.html), and /about must not become /about/.
  router.use(express.static(dist('shell'), { ...options, redirect: false }));
  const shellDist = dist('shell');
  // app.html is the neutral SPA shell; index.html is the prerendered landing page.
  const appHtml = path.join(shellDist, 'app.html');
  const shellIndex = path.join(shellDist, 'index.html');
  // Client-side routes (/about, /suburb/x, /dashboard...) all load the shell, which routes in the browser.
  const spaFallback: RequestHandler = (req, res, next) => {
    if (!isPageRequest(req)) return next();
    const file = prerenderedPage(shellDist, req.path) ?? (fs.existsSync(appHtml) ? appHtml : shellIndex);
    if (!fs.existsSync(file)) {
      res
        .status(503)
        .type('text/plain')
        .send(
          'The front ends have not been built yet. Run `npm run build:frontends` (npm start does it for you).',
        );
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(file);
  };
  router.use(spaFallback);
  return router;
}

/** Proxies to the front-end containers (docker compose, Kubernetes); each serves its dist at its root. */
export function proxiedFrontends(urls: { shell: string; public: string; dashboard: string }): Router {
  const router = express.Router();
  const common = { changeOrigin: true, xfwd: true } as const;
  router.use(REMOTE_PREFIXES.public, createProxyMiddleware({ ...common, target: urls.public }));
  router.use(REMOTE_PREFIXES.dashboard, createProxyMiddleware({ ...common, target: urls.dashboard }));
  const shell = createProxyMiddleware({ ...common, target: urls.shell });
  router.use((req, res, next) => {
    if (req.path.startsWith('/api/') || req.path.startsWith('/ws/')) return next();
    void shell(req, res, next);
  });
  return router;
}
