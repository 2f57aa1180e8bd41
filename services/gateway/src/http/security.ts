import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * CORS is closed unless an origin is listed in ALLOWED_ORIGINS; same-origin calls need no CORS at all.
 * Returns true when it answered a preflight itself. Not the `cors` package (not installed): it answers every
 * preflight itself, refused origins included, and adds Vary to every answer; here a preflight from an origin
 * that is not listed goes on like any other request.
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

/** helmet's headers for every answer (edge.ts runs it on each request, proxied or not). */
export function securityHeaders(secureCookies: boolean) {
  return helmet(helmetOptions(secureCookies));
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
