/**
 * The API reference (issue 17): GET /api/docs (Swagger UI), /api/docs/openapi.json (the combined document) and the
 * page's assets, served from the gateway's own copy of swagger-ui-dist (no CDN: the page works offline and under
 * the gateway's Content-Security-Policy, script-src 'self', so its start-up script is a file, not inline).
 * Open to anyone in development; in production to signed-in admins only (the edge has put the session user on
 * req.user before these handlers run).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import { notFound } from '@tyres/service-kit';
import type { ApiReference } from '../app/api-reference';
import { ADMIN_ONLY, NOT_AUTHENTICATED } from './replies';

export const DOCS_PATH = '/api/docs';
export const DOCS_DOCUMENT_PATH = `${DOCS_PATH}/openapi.json`;
const ASSETS_PATH = `${DOCS_PATH}/assets`;

const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files the page needs; anything else under assets/ is a 404 (no directory listing, no source maps). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'start.js': 'text/javascript; charset=utf-8',
};

/** Swagger UI's start-up: our document, no calls to the public validator (an external request). */
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCS_DOCUMENT_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Mobile tyres API reference</title>
    <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${ASSETS_PATH}/start.js"></script>
  </body>
</html>
`;

export interface ApiDocsDeps {
  reference: Pick<ApiReference, 'document'>;
  /** In production the reference is for admins only. */
  adminOnly: boolean;
}

export function apiDocsRoutes(deps: ApiDocsDeps): Router {
  const router = Router();
  const access: RequestHandler = (req, res, next) => {
    if (!deps.adminOnly) return next();
    if (!req.user) return void res.status(401).json(NOT_AUTHENTICATED);
    if (req.user.role !== 'admin') return void res.status(403).json(ADMIN_ONLY);
    next();
  };
  // Read once, on the first request: the bundle is about 1.5 MB and most gateways never serve it.
  const files = new Map<string, Buffer>();
  const asset = (name: string) => {
    let body = files.get(name);
    if (!body) {
      body = name === 'start.js' ? Buffer.from(START_SCRIPT) : readFileSync(path.join(SWAGGER_DIR, name));
      files.set(name, body);
    }
    return body;
  };

  router.get(DOCS_PATH, access, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  router.get(DOCS_DOCUMENT_PATH, access, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.reference.document());
  });
  router.get(`${ASSETS_PATH}/:file`, access, (req, res) => {
    const name = String(req.params.file);
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) throw notFound();
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', deps.adminOnly ? 'private, max-age=3600' : 'public, max-age=3600');
    res.send(asset(name));
  });
  return router;
}
