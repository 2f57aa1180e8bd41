import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { identityMiddleware, requireAdmin, signIdentity, VerifiedTokens, verifyIdentity } from './identity';
import { errorHandler } from './errors';

const keys = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

describe('forwarded identity', () => {
  const gateway = keys();
  const attacker = keys();
  const admin = { id: 'u1', username: 'boss', role: 'admin' as const };

  it('round-trips a gateway-signed identity', () => {
    expect(verifyIdentity(gateway.publicKey, signIdentity(gateway.privateKey, admin))).toEqual(admin);
  });

  it('rejects a token signed by another key or expired', () => {
    expect(() => verifyIdentity(gateway.publicKey, signIdentity(attacker.privateKey, admin))).toThrow();
    expect(() => verifyIdentity(gateway.publicKey, signIdentity(gateway.privateKey, admin, -10))).toThrow();
  });

  it('middleware enforces roles and refuses forged tokens', async () => {
    const app = express();
    app.use(identityMiddleware(gateway.publicKey));
    app.get('/admin', requireAdmin, (req, res) => res.json(req.identity));
    app.use(errorHandler(pino({ level: 'silent' })));
    const tech = signIdentity(gateway.privateKey, { id: 'u2', username: 'tech', role: 'technician' });
    expect((await request(app).get('/admin')).status).toBe(401);
    expect((await request(app).get('/admin').set('x-identity-token', tech)).status).toBe(403);
    expect((await request(app).get('/admin').set('x-identity-token', 'garbage')).status).toBe(401);
    const ok = await request(app)
      .get('/admin')
      .set('x-identity-token', signIdentity(gateway.privateKey, admin));
    expect(ok.status).toBe(200);
    expect(ok.body.username).toBe('boss');
  });
});

describe('identity token caches', () => {
  const gateway = keys();
  const other = keys();
  const tech = { id: 'u2', username: 'tech', role: 'technician' as const };

  it('a remembered token still expires, and a forged one is never remembered', () => {
    let now = Date.now();
    const verified = new VerifiedTokens(createPublicKey(gateway.publicKey), 10, () => now);
    const token = signIdentity(gateway.privateKey, tech, 60);
    expect(verified.verify(token)).toEqual(tech);
    expect(verified.verify(token)).toEqual(tech);
    now += 61_000;
    expect(() => verified.verify(token)).toThrow();
    const forged = signIdentity(other.privateKey, tech, 60);
    expect(() => verified.verify(forged)).toThrow();
    expect(() => verified.verify(forged)).toThrow();
  });

  it('a remembered token is good up to its last millisecond, and the cache is bounded', () => {
    const token = signIdentity(gateway.privateKey, tech, 60);
    const expMs =
      (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp *
      1000;
    let now = expMs - 60_000;
    const verified = new VerifiedTokens(createPublicKey(gateway.publicKey), 2, () => now);
    expect(verified.verify(token)).toEqual(tech);
    for (const id of ['u3', 'u4', 'u5'])
      verified.verify(signIdentity(gateway.privateKey, { ...tech, id }, 60));
    now = expMs - 1;
    expect(verified.verify(token)).toEqual(tech);
    expect(verified.verify(token)).toEqual(tech);
    now = expMs;
    expect(() => verified.verify(token)).toThrow();
  });
});
