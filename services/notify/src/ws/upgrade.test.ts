import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import jwt from 'jsonwebtoken';
import pino from 'pino';
import { signIdentity } from '@tyres/service-kit';
import { NotificationHub } from './hub';
import { createUpgradeHandler } from './upgrade';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const logger = pino({ level: 'silent' });

function setup(overrides: { draining?: boolean; maxConnections?: number } = {}) {
  const hub = new NotificationHub({
    logger,
    heartbeatMs: 30_000,
    maxMessagesPer10s: 30,
    maxLifetimeMs: 0,
    maxBufferedBytes: 1 << 20,
  });
  const rejected: number[] = [];
  const handler = createUpgradeHandler({
    hub,
    logger,
    identityPublicKey: publicPem,
    maxPayloadBytes: 1024,
    maxConnections: overrides.maxConnections ?? 10,
    isDraining: () => overrides.draining ?? false,
    onRejected: (status) => rejected.push(status),
  });
  return { hub, handler, rejected };
}

async function answer(
  handler: ReturnType<typeof setup>['handler'],
  url: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const socket = new PassThrough();
  let written = '';
  socket.on('data', (c: Buffer) => (written += c.toString()));
  const req = {
    method: 'GET',
    url,
    headers: { upgrade: 'websocket', connection: 'Upgrade', ...headers },
  } as unknown as http.IncomingMessage;
  handler(req, socket, Buffer.alloc(0));
  await new Promise((r) => setImmediate(r));
  return written;
}

const token = (role: 'admin' | 'technician' = 'admin') =>
  signIdentity(privatePem, { id: randomUUID(), username: 'u', role });

describe('upgrade handler', () => {
  it('answers 401 without an identity, or with a bad one, before any WebSocket exists', async () => {
    const { handler, rejected } = setup();
    expect(await answer(handler, '/ws/notifications')).toMatch(
      /^HTTP\/1\.1 401 Unauthorized\r\n[\s\S]*\{"message":"Not authenticated"\}$/,
    );
    expect(await answer(handler, '/ws/notifications', { 'x-identity-token': 'nope' })).toMatch(
      /^HTTP\/1\.1 401 /,
    );
    expect(rejected).toEqual([401, 401]);
  });

  it('refuses forged identities: another key, unsigned, expired, or not meant for services', async () => {
    const { handler, rejected } = setup();
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: randomUUID(), username: 'boss', role: 'admin', iss: 'gateway', aud: 'services' };
    const forged = [
      signIdentity(other, { id: randomUUID(), username: 'boss', role: 'admin' }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 60 })}.`,
      `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 60 })}.c2lnbmF0dXJl`,
      // The right key, but expired, or for another audience.
      jwt.sign({ ...claims, iat: now - 600, exp: now - 300 }, privatePem, { algorithm: 'ES256' }),
      jwt.sign({ ...claims, aud: 'browser' }, privatePem, { algorithm: 'ES256', expiresIn: 60 }),
    ];
    for (const t of forged)
      expect(await answer(handler, '/ws/notifications', { 'x-identity-token': t })).toMatch(
        /^HTTP\/1\.1 401 /,
      );
    expect(rejected).toEqual([401, 401, 401, 401, 401]);
    // Control: the same claims, valid, pass the identity check (ws then answers 400: no handshake key here).
    const valid = jwt.sign(claims, privatePem, { algorithm: 'ES256', expiresIn: 60 });
    expect(await answer(handler, '/ws/notifications', { 'x-identity-token': valid })).toMatch(
      /^HTTP\/1\.1 400 /,
    );
  });

  it('answers 401, not 503, to an anonymous upgrade even when full or draining', async () => {
    for (const s of [setup({ draining: true }), setup({ maxConnections: 0 })])
      expect(await answer(s.handler, '/ws/notifications')).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('only upgrades the notifications path', async () => {
    const { handler } = setup();
    expect(await answer(handler, '/ws/other', { 'x-identity-token': token() })).toMatch(/^HTTP\/1\.1 404 /);
    expect(await answer(handler, '/ws/notificationsX', { 'x-identity-token': token() })).toMatch(
      /^HTTP\/1\.1 404 /,
    );
  });

  it('refuses new sockets while draining or when full (503, the client reconnects elsewhere)', async () => {
    expect(
      await answer(setup({ draining: true }).handler, '/ws/notifications', { 'x-identity-token': token() }),
    ).toMatch(/^HTTP\/1\.1 503 /);
    expect(
      await answer(setup({ maxConnections: 0 }).handler, '/ws/notifications', {
        'x-identity-token': token(),
      }),
    ).toMatch(/^HTTP\/1\.1 503 /);
  });

  it('hands a valid upgrade to ws (which checks the handshake headers)', async () => {
    const { handler } = setup();
    // Identity fine, but no Sec-WebSocket-Key: ws itself answers 400.
    expect(
      await answer(handler, '/ws/notifications?x=1', { 'x-identity-token': token('technician') }),
    ).toMatch(/^HTTP\/1\.1 400 /);
  });
});
