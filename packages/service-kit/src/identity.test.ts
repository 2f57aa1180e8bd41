import { generateKeyPairSync } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { identityMiddleware, requireAdmin, signIdentity, verifyIdentity } from './identity';
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
    const ok = await request(app).get('/admin').set('x-identity-token', signIdentity(gateway.privateKey, admin));
    expect(ok.status).toBe(200);
    expect(ok.body.username).toBe('boss');
  });
});
