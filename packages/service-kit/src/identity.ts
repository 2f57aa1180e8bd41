import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { forbidden, unauthorized } from './errors';

export type StaffRole = 'admin' | 'technician';

/** The verified staff identity the gateway forwards to services. */
export interface Identity {
  id: string;
  username: string;
  role: StaffRole;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      identity?: Identity;
      correlationId: string;
    }
  }
}

export const IDENTITY_HEADER = 'x-identity-token';
const ISSUER = 'gateway';
const AUDIENCE = 'services';
const ALGORITHM = 'ES256';

/**
 * Signed by the gateway with its private key (ES256), so a service can check the identity without being able
 * to mint one. Short lived: it only has to survive one hop.
 */
export function signIdentity(privateKeyPem: string | KeyObject, identity: Identity, ttlSeconds = 60): string {
  return jwt.sign({ username: identity.username, role: identity.role }, privateKeyPem, {
    algorithm: ALGORITHM,
    subject: identity.id,
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: ttlSeconds,
  });
}

export function verifyIdentity(publicKeyPem: string | KeyObject, token: string, nowMs?: number): Identity {
  const claims = jwt.verify(token, publicKeyPem, {
    algorithms: [ALGORITHM],
    issuer: ISSUER,
    audience: AUDIENCE,
    ...(nowMs === undefined ? {} : { clockTimestamp: Math.floor(nowMs / 1000) }),
  }) as jwt.JwtPayload;
  const role = claims.role;
  if (
    typeof claims.sub !== 'string' ||
    typeof claims.username !== 'string' ||
    (role !== 'admin' && role !== 'technician')
  )
    throw new Error('identity token has an unexpected shape');
  return { id: claims.sub, username: claims.username, role };
}

/**
 * Reads the gateway-signed identity if present. A forged or expired token is a 401, never silently anonymous.
 * Routes then opt in with requireStaff / requireAdmin.
 */
export function identityMiddleware(publicKeyPem: string): RequestHandler {
  // Parsed once: re-reading the PEM on every request costs more than the signature check itself.
  const publicKey = createPublicKey(publicKeyPem);
  const verified = new VerifiedTokens(publicKey);
  return (req, _res, next) => {
    const header = req.headers[IDENTITY_HEADER];
    if (header === undefined) return next();
    const token = Array.isArray(header) ? header[0] : header;
    try {
      req.identity = verified.verify(token ?? '');
      next();
    } catch {
      next(unauthorized('Invalid identity token'));
    }
  };
}

/**
 * The gateway reuses one signed identity per user for up to half its life, so a service sees the same token
 * string many times. An ES256 check costs more than most handlers: a token that verified once is remembered
 * (by its exact bytes) until it expires, in an LRU bounded by `max`.
 */
export class VerifiedTokens {
  private readonly seen: LRUCache<string, Identity>;

  constructor(
    private readonly publicKey: KeyObject,
    max = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    // The cache's clock is ours (tests move it), read on every lookup (no 1 ms resolution) so expiry is exact.
    this.seen = new LRUCache<string, Identity>({ max, ttlResolution: 0, perf: { now } });
  }

  verify(token: string): Identity {
    const hit = this.seen.get(token);
    if (hit) return hit;
    const now = this.now();
    const identity = verifyIdentity(this.publicKey, token, now);
    const exp = (jwt.decode(token) as jwt.JwtPayload | null)?.exp;
    // jsonwebtoken refuses a token from its exp millisecond on; the cache keeps an entry while age <= ttl, hence -1.
    const ttl = typeof exp === 'number' ? exp * 1000 - now - 1 : 0;
    if (ttl > 0) this.seen.set(token, identity, { ttl });
    return identity;
  }
}

export const requireStaff: RequestHandler = (req, _res, next) => {
  if (!req.identity) return next(unauthorized());
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.identity) return next(unauthorized());
  if (req.identity.role !== 'admin') return next(forbidden('Only an admin can do that'));
  next();
};

/** A parsed signing key for callers that sign on every request (the gateway). */
export const parsePrivateKey = (pem: string): KeyObject => createPrivateKey(pem);
