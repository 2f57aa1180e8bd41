import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { forbidden } from '@tyres/service-kit';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origins a browser request may come from: the gateway's own host plus ALLOWED_ORIGINS. */
export function isAllowedOrigin(origin: string, host: string | undefined, allowed: string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

function requestOrigin(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const origin = req.headers.origin;
  if (origin && origin !== 'null') return origin;
  if (origin === 'null') return 'null';
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * CSRF defence for cookie-authenticated calls: a state-changing request that a browser marks as coming from
 * another origin is refused. Non-browser clients (no Origin, no Referer) are unaffected; the SameSite=Lax
 * cookie is the second layer.
 */
export function isCrossSiteMutation(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  allowed: string[],
): boolean {
  if (!UNSAFE.has(req.method ?? 'GET')) return false;
  const origin = requestOrigin(req);
  return origin !== undefined && !isAllowedOrigin(origin, req.headers.host, allowed);
}

export function csrfOriginCheck(allowed: string[]): RequestHandler {
  return (req, _res, next) => {
    next(isCrossSiteMutation(req, allowed) ? forbidden('Cross-site request refused') : undefined);
  };
}

/**
 * CORS is closed unless an origin is listed in ALLOWED_ORIGINS; same-origin calls need no CORS at all.
 * Returns true when it answered a preflight itself.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin || !allowed.includes(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Vary', 'Origin');
  if (req.method !== 'OPTIONS') return false;
  res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key, X-Request-Id');
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
  return true;
}

export function cors(allowed: string[]): RequestHandler {
  return (req, res, next) => {
    if (!applyCors(req, res, allowed)) next();
  };
}

export function securityHeaders(secureCookies: boolean): RequestHandler {
  return helmet(helmetOptions(secureCookies));
}

/**
 * helmet's headers as a list, computed once: the API fast path (api-forwarder.ts) sets them without running
 * the middleware per request. They do not depend on the request.
 */
export function securityHeaderList(secureCookies: boolean): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const collector = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let done = false;
  securityHeaders(secureCookies)({} as never, collector as never, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

function helmetOptions(secureCookies: boolean): Parameters<typeof helmet>[0] {
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", 'https://js.stripe.com', 'https://maps.googleapis.com'],
        // antd writes its styles at run time (CSS-in-JS).
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        'img-src': [
          "'self'",
          'data:',
          'blob:',
          'https://*.stripe.com',
          'https://maps.gstatic.com',
          'https://maps.googleapis.com',
        ],
        'connect-src': ["'self'", 'ws:', 'wss:', 'https://api.stripe.com', 'https://maps.googleapis.com'],
        'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
        'upgrade-insecure-requests': secureCookies ? [] : null,
      },
    },
    // Module Federation remotes and Stripe iframes are cross-origin in some deployments.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: secureCookies,
  };
}
