// The front-end containers for the production-parity run (scripts/parity.mjs), without nginx: an HTTP server per
// front end answering as the image's nginx configuration does (frontends/<name>/nginx.conf), over the folder the
// image serves (/srv/www = frontends/<name>/dist) and, for the shell, the folder its start step renders the pages
// into (/tmp/shell, scripts/parity.mjs runs the step):
//   every front end   /healthz 200
//   a remote          /readyz 200; /remotes/<name>/x and /x: the file, or 404
//   the shell         /readyz 200 once the start step wrote <render>/ready, else 503; /.site-template/ 404;
//                     /config.json, /sitemap.xml, /robots.txt from <render>/www; a file asked for by name from
//                     /srv/www or 404; a page from <render>/www: the file, its <path>/index.html, else /app.html
// Cache and security headers and gzip (frontends/nginx.conf) are not reproduced: the manifest test checks that
// configuration, and the gateway, which the journeys go through, sets its own.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'text/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};
/** The shell's `location ~* \.(?:js|mjs|css|…)$ { try_files $uri =404; }`: files asked for by name. */
const BY_NAME =
  /\.(?:js|mjs|css|map|json|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|wasm|txt|xml|webmanifest|zip)$/i;

/** An existing regular file `urlPath` names under `root`, or undefined (no escaping the root). */
function fileUnder(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const file = path.join(root, decoded);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  return fs.existsSync(file) && fs.statSync(file).isFile() ? file : undefined;
}

/**
 * Starts the server of one front end on 127.0.0.1:`port`: `name` is shell, public or dashboard, `root` the folder
 * its image copies to /srv/www, `renderDir` the shell's /tmp/shell. Resolves to the http.Server once listening.
 */
export function startFrontend({ name, root, renderDir, port }) {
  const rendered = renderDir && path.join(renderDir, 'www');
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://frontend');
    let uri = url.pathname;
    const send = (status, file) => {
      if (!file) {
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(status === 200 ? 'ok\n' : `${status}\n`);
        return;
      }
      res.writeHead(status, {
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': fs.statSync(file).size,
      });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    };
    const serve = (dir, ...candidates) => {
      for (const c of candidates) {
        const file = fileUnder(dir, c);
        if (file) return send(200, file);
      }
      return send(404);
    };
    if (uri === '/healthz') return send(200);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405);
    if (name !== 'shell') {
      if (uri === '/readyz') return send(200);
      // rewrite ^/remotes/<name>(/.*)$ $1 last;  location / { try_files $uri =404; }
      const prefix = `/remotes/${name}/`;
      if (uri.startsWith(prefix)) uri = uri.slice(prefix.length - 1);
      return serve(root, uri);
    }
    if (uri === '/readyz') return send(fs.existsSync(path.join(renderDir, 'ready')) ? 200 : 503);
    if (uri.startsWith('/.site-template/')) return send(404);
    if (['/config.json', '/sitemap.xml', '/robots.txt'].includes(uri)) return serve(rendered, uri);
    if (BY_NAME.test(uri)) return serve(root, uri);
    // location / { root /tmp/shell/www; try_files $uri $uri/index.html /app.html; }  (index index.html for "/")
    return serve(rendered, uri, path.posix.join(uri, 'index.html'), '/app.html');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
