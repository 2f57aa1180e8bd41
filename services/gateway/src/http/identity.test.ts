import { generateKeyPairSync } from 'node:crypto';
import { verifyIdentity } from '@tyres/service-kit';
import { IdentityTokens } from './identity';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const tina = { id: 'u-1', username: 'tina', role: 'technician' as const };

describe('IdentityTokens', () => {
  // The cache reads its clock at most once per real millisecond: each step waits a little.
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('reuses one token per user for half its life, then signs a new one', async () => {
    let now = 1_000;
    const tokens = new IdentityTokens(privatePem, 60, 10, { now: () => now });
    const first = tokens.sign(tina);
    expect(verifyIdentity(publicKey, first)).toEqual(tina);
    now += 29_000;
    await tick();
    expect(tokens.sign(tina)).toBe(first);
    now += 2_000;
    await tick();
    const renewed = tokens.sign(tina);
    expect(renewed).not.toBe(first);
    expect(verifyIdentity(publicKey, renewed)).toEqual(tina);
  });

  it('signs a new token at once when the name or role changed', () => {
    const tokens = new IdentityTokens(privatePem);
    const first = tokens.sign(tina);
    const promoted = tokens.sign({ ...tina, role: 'admin' });
    expect(verifyIdentity(publicKey, promoted)).toEqual({ ...tina, role: 'admin' });
    const renamed = tokens.sign({ ...tina, username: 'tina.b' });
    expect(new Set([first, promoted, renamed]).size).toBe(3);
  });

  it('keeps at most `max` users, forgetting the least recently used first', () => {
    const tokens = new IdentityTokens(privatePem, 60, 2);
    const a = tokens.sign({ ...tina, id: 'a' });
    const b = tokens.sign({ ...tina, id: 'b' });
    expect(tokens.sign({ ...tina, id: 'a' })).toBe(a); // a is now the most recent
    tokens.sign({ ...tina, id: 'c' }); // b goes
    expect(tokens.sign({ ...tina, id: 'a' })).toBe(a);
    expect(tokens.sign({ ...tina, id: 'b' })).not.toBe(b);
  });
});
