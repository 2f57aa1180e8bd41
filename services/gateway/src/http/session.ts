import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import jwt from 'jsonwebtoken';
import type { Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Revocation, Revocations } from '../db/revocations';

export const SESSION_COOKIE = 'tyres_session';
/** Bound on the verified-token memo (least recently used go first; a miss only costs one HMAC check). */
const MAX_REMEMBERED_TOKENS = 10_000;

export interface SessionClaims {
  sub: string;
  jti: string;
  exp: number;
}

export interface SessionOptions {
  secret: string;
  ttlHours: number;
  secure: boolean;
  /** Logged-out tokens: recorded in Postgres, cached in Redis (db/revocations.ts). */
  revocations: Pick<Revocations, 'isRevoked' | 'revoke'>;
}

/**
 * Stateless JWT session in an httpOnly, SameSite=Lax cookie. Logout revokes the token id (recorded in Postgres,
 * cached in Redis) until it would have expired, so a copied cookie stops working at logout, not hours later, and
 * stays refused after a Redis restart.
 */
export class Sessions {
  private readonly verified = new LRUCache<string, SessionClaims>({ max: MAX_REMEMBERED_TOKENS });

  constructor(private readonly opts: SessionOptions) {}

  issue(res: Response, userId: string): void {
    const jti = randomUUID();
    const token = jwt.sign({}, this.opts.secret, {
      algorithm: 'HS256',
      subject: userId,
      jwtid: jti,
      expiresIn: Math.round(this.opts.ttlHours * 3600),
    });
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.opts.secure,
      path: '/',
      maxAge: this.opts.ttlHours * 3600 * 1000,
    });
  }

  clear(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: this.opts.secure, path: '/' });
  }

  /** Reads and verifies the cookie; undefined when absent, malformed, expired or revoked. */
  async read(req: Pick<IncomingMessage, 'headers'>): Promise<SessionClaims | undefined> {
    const claims = this.verify(req);
    if (!claims || (await this.isRevoked(claims))) return undefined;
    return claims;
  }

  /**
   * The cookie's claims if its signature and expiry are good (no revocation check: see isRevoked). A token that
   * verified once is remembered by its exact bytes until it expires, so the per-request cost is a map lookup.
   */
  verify(req: Pick<IncomingMessage, 'headers'>): SessionClaims | undefined {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (!token) return undefined;
    const hit = this.verified.get(token);
    if (hit) return hit;
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.opts.secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    } catch {
      return undefined;
    }
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.exp !== 'number')
      return undefined;
    const result = { sub: claims.sub, jti: claims.jti, exp: claims.exp };
    // Forgotten when the token expires (the cache then answers a miss, and jwt.verify refuses it).
    const msLeft = Math.floor(claims.exp * 1000 - Date.now());
    if (msLeft > 0) this.verified.set(token, result, { ttl: msLeft });
    return result;
  }

  isRevoked(claims: SessionClaims): Promise<boolean> {
    return this.opts.revocations.isRevoked(claims.jti);
  }

  /** Where logouts are recorded (the sign-in use cases write them). */
  get revocations(): SessionOptions['revocations'] {
    return this.opts.revocations;
  }
}

/** The durable record of ending this session early (logout). */
export function revocationOf(claims: SessionClaims): Revocation {
  return { jti: claims.jti, userId: claims.sub, expiresAt: new Date(claims.exp * 1000) };
}

/** Minimal cookie reader: the gateway must not parse bodies or cookies it forwards, only find its own. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
