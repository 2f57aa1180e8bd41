/**
 * Dev aid only (the gateway serves the front ends in the real stack): serves the built front ends the
 * way the gateway must, plus a stub of the session API, so the shell can be looked at in a browser.
 *
 *   npm run build:frontends && npx tsx test/e2e/static-server.ts      # PORT=8080 by default
 *
 * - /remotes/public/*, /remotes/dashboard/*  -> frontends/<name>/dist, 404 when missing (never index.html)
 * - /config.json and the shell's files        -> frontends/shell/dist
 * - any other GET without a file extension   -> frontends/shell/dist/index.html (SPA fallback)
 * - /api/user, /api/login, /api/logout        -> stub session (admin/secret123, tech/secret123)
 * Cache headers as production should send them: content-hashed files immutable for a year;
 * index.html, config.json, remoteEntry.js and mf-manifest.json revalidated every time.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SHELL_DIST = path.join(ROOT, 'frontends/shell/dist');
const REMOTES: Record<string, string> = {
  '/remotes/public/': path.join(ROOT, 'frontends/public/dist'),
  '/remotes/dashboard/': path.join(ROOT, 'frontends/dashboard/dist'),
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+$/;

function cacheControl(file: string): string {
  return HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

async function sendFile(res: ServerResponse, file: string, method: string): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': cacheControl(file),
    'X-Content-Type-Options': 'nosniff',
  });
  if (method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
  return true;
}

function safeJoin(dir: string, urlPath: string): string | null {
  const file = path.join(dir, decodeURIComponent(urlPath));
  return file.startsWith(dir + path.sep) || file === dir ? file : null;
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

const USERS = {
  admin: { id: 1, username: 'admin', email: 'admin@example.com', role: 'admin', isActive: true },
  tech: { id: 2, username: 'tech', email: null, role: 'technician', isActive: true },
} as const;
const PASSWORD = 'secret123';

function sessionUser(req: IncomingMessage) {
  const match = /(?:^|;\s*)stub_session=(admin|tech)(?:;|$)/.exec(req.headers.cookie ?? '');
  return match ? USERS[match[1] as keyof typeof USERS] : null;
}

async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  if (pathname === '/api/user' && req.method === 'GET') {
    const user = sessionUser(req);
    if (!user) return json(res, 401, { message: 'Not authenticated' });
    return json(res, 200, user);
  }
  if (pathname === '/api/login' && req.method === 'POST') {
    const body = (await readBody(req)) as { username?: unknown; password?: unknown } | null;
    const name = body?.username;
    if ((name === 'admin' || name === 'tech') && body?.password === PASSWORD) {
      return json(res, 200, USERS[name], {
        'Set-Cookie': `stub_session=${name}; Path=/; HttpOnly; SameSite=Lax`,
      });
    }
    return json(res, 401, { message: 'Invalid username or password' });
  }
  if (pathname === '/api/logout' && req.method === 'POST') {
    return json(res, 200, { ok: true }, { 'Set-Cookie': 'stub_session=; Path=/; Max-Age=0' });
  }
  return json(res, 404, { message: 'Not found' });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname.startsWith('/api/')) return handleApi(req, res, pathname);
  if (method !== 'GET' && method !== 'HEAD') return json(res, 405, { message: 'Method not allowed' });

  for (const [prefix, dir] of Object.entries(REMOTES)) {
    if (pathname.startsWith(prefix)) {
      const file = safeJoin(dir, pathname.slice(prefix.length));
      if (file && (await sendFile(res, file, method))) return;
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('Not found');
      return;
    }
  }

  const file = pathname === '/' ? null : safeJoin(SHELL_DIST, pathname);
  if (file && (await sendFile(res, file, method))) return;
  // A missing asset is a 404, never the HTML page (a script answered with HTML fails obscurely).
  if (path.extname(pathname)) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('Not found');
    return;
  }
  if (!(await sendFile(res, path.join(SHELL_DIST, 'index.html'), method))) {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('frontends/shell/dist/index.html is missing: run npm run build:frontends');
  }
}

export function startStaticServer(port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 8080);
  startStaticServer(port, process.env.HOST ?? '127.0.0.1').then(
    () => console.log(`front ends on http://localhost:${port} (stub login admin/secret123, tech/secret123)`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
