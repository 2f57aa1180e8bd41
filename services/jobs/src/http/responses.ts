import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import type { JsonPage } from '../domain/job-view';

/**
 * A page of a list: the body stays a plain array (what the spec's calls expect); the totals are headers
 * (X-Total-Count, X-Page, X-Page-Size, X-Total-Pages) and a Link header with rel="next" / rel="prev".
 */
export async function sendPage(
  req: Request,
  res: Response,
  page: JsonPage,
  q: { page: number; pageSize: number },
): Promise<void> {
  const totalPages = Math.max(1, Math.ceil(page.total / q.pageSize));
  res.setHeader('X-Total-Count', String(page.total));
  res.setHeader('X-Page', String(q.page));
  res.setHeader('X-Page-Size', String(q.pageSize));
  res.setHeader('X-Total-Pages', String(totalPages));
  const links: string[] = [];
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    params.set('page', String(p));
    params.set('pageSize', String(q.pageSize));
    links.push(`<${req.baseUrl}${req.path}?${params.toString()}>; rel="${rel}"`);
  };
  if (q.page > 1) link(q.page - 1, 'prev');
  if (q.page < totalPages) link(q.page + 1, 'next');
  if (links.length) res.setHeader('Link', links.join(', '));
  // Postgres built the JSON array (src/db/job-json.ts); send it as is, compressed for clients that accept it.
  await sendJson(req, res, page.body);
}

const gzip = promisify(zlib.gzip);
/** Below this a compressed answer saves too little to be worth the CPU. */
const COMPRESS_MIN_BYTES = 2048;

/**
 * JSON text, gzip-compressed (level 1, on libuv's thread pool) when the client accepts it and the body is large:
 * a page of 50 jobs is ~46 KiB of JSON and ~6 KiB compressed, which is what the gateway then has to move.
 */
async function sendJson(req: Request, res: Response, body: string): Promise<void> {
  res.type('application/json');
  res.vary('Accept-Encoding');
  if (body.length >= COMPRESS_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(await gzip(body, { level: 1 }));
    return;
  }
  res.send(body);
}
