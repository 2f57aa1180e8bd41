/**
 * What a fuzzed request may be answered with, and the failure report of one that was answered wrongly.
 *
 *   - never 5xx; a 503 is only acceptable with Retry-After, and is reported;
 *   - anonymous on a staff or admin route: 401, whatever the body (the gateway's edge checks access before it reads
 *     one); 404 when the path has dot segments (refused before the session is looked at);
 *   - a technician on an admin route: 403 where the gateway knows the route is admin-only, else 403, or 404 where
 *     the service does not confirm the id (400/413/415 when the service's parser refuses the body first);
 *   - a request the server must refuse: 4xx (413 for an oversize body, 403 for a cross-site write);
 *   - every error answer is JSON with a `message`.
 */
import { matchOwnRoute, matchRoute } from '../../services/gateway/src/http/routing';
import { routeId } from './catalogue';
import type { FuzzRequest } from './generators';
import type { RawResponse } from './http';

/** The gateway's rule (services/gateway/src/http/api-forwarder.ts): dot segments are refused before anything else. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

export interface Verdict {
  ok: boolean;
  problems: string[];
  /** 503 with Retry-After: acceptable, but reported. */
  retryLater?: boolean;
}

function allowedStatuses(req: FuzzRequest): { set?: Set<number>; range?: [number, number]; why: string } {
  const route = req.route;
  const path = req.target.split('?')[0]!;
  // The access rule the gateway's edge applies to this very path (services/gateway/src/http/edge.ts): the
  // routing table's, or its own route's; it runs before any body is read.
  const gw = matchRoute(path);
  const edgeAccess = gw?.access ?? matchOwnRoute(req.method, path)?.access;
  const dot = gw && DOT_SEGMENT.test(path) ? [404] : [];
  const hostile = req.hostilePath ? [400, 404, 414, 431] : [];
  // Another poison of the same request may be refused first: a chunked DELETE must declare its length (411: the
  // gateway will not pass it on unframed), a NUL in the query (400).
  const alsoRefused = req.chunked && req.method === 'DELETE' ? [411] : [];
  alsoRefused.push(...(req.alsoRefusedWith ?? []));

  if (req.crossSite) return { set: new Set([403, ...dot, ...hostile]), why: 'cross-site write' };
  if (req.identity === 'anonymous' && route.access !== 'public') {
    if (edgeAccess && edgeAccess !== 'public')
      return { set: new Set([401, ...dot]), why: `anonymous on a ${route.access} route` };
    // The hostile path left the route (an extra segment): whatever answers must not serve it.
    return { set: new Set([401, ...hostile, ...dot]), why: `anonymous on a ${route.access} route` };
  }
  if (req.identity === 'technician' && route.access === 'admin') {
    if (edgeAccess === 'admin') return { set: new Set([403, ...dot]), why: 'technician on an admin route' };
    // Staff at the edge, admin in the service: the service parses the body before its route checks the role.
    const set = new Set([403, 404, ...hostile, ...alsoRefused]);
    if (req.preParse) [400, 413, 415].forEach((s) => set.add(s));
    return { set, why: 'technician on an admin route' };
  }
  if (req.exact && req.mustFail)
    return { set: new Set([...req.exact, ...hostile, ...alsoRefused]), why: req.describe.join(', ') };
  if (req.oversize && req.mustFail)
    return { set: new Set([413, ...hostile, ...alsoRefused]), why: 'oversize body' };
  if (req.mustFail) return { range: [400, 499], why: 'must refuse' };
  return { range: [100, 499], why: 'may accept' };
}

export function judge(req: FuzzRequest, res: RawResponse): Verdict {
  const problems: string[] = [];
  if (res.error && !res.status) {
    problems.push(`no answer (${res.error})`);
    return { ok: false, problems };
  }
  let retryLater = false;
  if (res.status >= 500) {
    if (res.status === 503 && res.headers['retry-after']) retryLater = true;
    else problems.push(`answered ${res.status}`);
  }
  const allowed = allowedStatuses(req);
  if (!retryLater && res.status < 500) {
    const fits = allowed.set
      ? allowed.set.has(res.status)
      : res.status >= allowed.range![0] && res.status <= allowed.range![1];
    if (!fits) {
      const want = allowed.set ? [...allowed.set].join('/') : `${allowed.range![0]}-${allowed.range![1]}`;
      problems.push(`answered ${res.status}, expected ${want} (${allowed.why})`);
    }
  }
  if (req.route.access === 'public' && (res.status === 401 || res.status === 403) && !req.crossSite)
    problems.push(`a public route answered ${res.status}`);
  if (res.status >= 400) {
    const type = String(res.headers['content-type'] ?? '');
    let message: unknown;
    try {
      message = (JSON.parse(res.body.toString('utf8')) as { message?: unknown }).message;
    } catch {
      message = undefined;
    }
    if (!/json/.test(type) || typeof message !== 'string' || !message.trim())
      problems.push(`error answer is not JSON with a message (content-type ${type || 'none'})`);
  }
  return { ok: problems.length === 0, problems, ...(retryLater ? { retryLater } : {}) };
}

/** Which service answered: the gateway itself, or the service behind it (express answers carry an ETag). */
export function answeredBy(req: FuzzRequest, res: RawResponse): string {
  if (!res.body.length && !res.headers['content-type'] && res.status >= 400)
    return "gateway (Node's HTTP parser, before any route)";
  const gw = matchRoute(req.target.split('?')[0]!);
  if (!gw) return 'gateway';
  const code = (() => {
    try {
      return (JSON.parse(res.body.toString('utf8')) as { code?: string }).code;
    } catch {
      return undefined;
    }
  })();
  if (code === 'upstream_unavailable') return `gateway (${gw.upstream} unreachable)`;
  return res.headers.etag || res.status < 400 ? gw.upstream : `gateway or ${gw.upstream}`;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** The failure in words, with what reproduces it. */
export function report(
  req: FuzzRequest,
  res: RawResponse,
  verdict: Verdict,
  seed: number,
  requestId: string,
) {
  const body = req.body
    ? req.body.length > 400
      ? `${req.body.length} bytes: ${JSON.stringify(req.body.subarray(0, 160).toString('latin1'))}…`
      : JSON.stringify(req.body.toString('utf8'))
    : '(none)';
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'cookie')
    .map(([k, v]) => `${k}: ${clip(v, 80)}`)
    .join('; ');
  return [
    `${verdict.problems.join('; ')} — ${routeId(req.route)} as ${req.identity}`,
    `  request:  ${req.method} ${clip(req.target, 200)}`,
    `  headers:  ${headers || '(none)'}${req.chunked ? '; transfer-encoding: chunked' : ''}${req.lyingLength ? `; content-length: ${req.lyingLength} (2 bytes sent)` : ''}`,
    `  body:     ${body}`,
    `  generated: ${req.describe.join(', ') || '(the route as the front end calls it)'}`,
    `  answer:   ${res.status}${res.error ? ` (${res.error})` : ''} from ${answeredBy(req, res)}: ${clip(res.body.toString('utf8'), 300)}`,
    `  x-request-id: ${requestId} (service logs), FUZZ_SEED=${seed}`,
  ].join('\n');
}
