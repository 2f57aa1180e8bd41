import type http from 'node:http';
import { LRUCache } from 'lru-cache';
import {
  IDENTITY_HEADER,
  parsePrivateKey,
  REQUEST_ID_HEADER,
  signIdentity,
  type Identity,
} from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';

/**
 * The signed identity the gateway forwards to services (ES256, short lived). One token per user is reused for
 * half its life: signing costs more than the rest of the hop, and a service remembers a token it verified once,
 * so a reused token is cheap on both sides. A change of name or role signs a new one at once.
 */
export class IdentityTokens {
  private readonly privateKey;
  private readonly issued: LRUCache<string, { token: string; username: string; role: Identity['role'] }>;

  constructor(
    privateKeyPem: string,
    private readonly ttlSeconds = 60,
    max = 10_000,
    /** Monotonic milliseconds (tests move it). */
    clock: { now(): number } = performance,
  ) {
    this.privateKey = parsePrivateKey(privateKeyPem);
    this.issued = new LRUCache({ max, ttl: (ttlSeconds * 1000) / 2, perf: clock });
  }

  sign(identity: Identity): string {
    const hit = this.issued.get(identity.id);
    if (hit && hit.username === identity.username && hit.role === identity.role) return hit.token;
    const token = signIdentity(this.privateKey, identity, this.ttlSeconds);
    this.issued.set(identity.id, { token, username: identity.username, role: identity.role });
    return token;
  }
}

/** Replaces whatever identity a client sent with the one the gateway verified, and passes the request id on. */
export function forwardIdentity(
  req: http.IncomingMessage,
  user: PublicUser | undefined,
  tokens: IdentityTokens,
  correlationId: string,
) {
  delete req.headers[IDENTITY_HEADER];
  if (user)
    req.headers[IDENTITY_HEADER] = tokens.sign({ id: user.id, username: user.username, role: user.role });
  req.headers[REQUEST_ID_HEADER] = correlationId;
}
