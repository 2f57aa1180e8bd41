import jwt from 'jsonwebtoken';
import { readCookie, Sessions, SESSION_COOKIE } from './session';

const secret = 's'.repeat(48);
// verify() never touches the revocations (they are checked separately).
const noRevocations = {
  isRevoked: () => Promise.reject(new Error('not called')),
  revoke: () => Promise.reject(new Error('not called')),
};
const sessions = () => new Sessions({ secret, ttlHours: 12, secure: false, revocations: noRevocations });
const withCookie = (token: string) => ({ headers: { cookie: `other=1; ${SESSION_COOKIE}=${token}` } });

describe('Sessions.verify', () => {
  it('remembers a verified token, and refuses it once it has expired', async () => {
    const s = sessions();
    const token = jwt.sign({}, secret, { algorithm: 'HS256', subject: 'u-1', jwtid: 'j-1', expiresIn: 1 });
    const first = s.verify(withCookie(token));
    expect(first).toMatchObject({ sub: 'u-1', jti: 'j-1' });
    expect(s.verify(withCookie(token))).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(s.verify(withCookie(token))).toBeUndefined();
  });

  it('refuses a token signed with another secret, another algorithm, or without its claims', () => {
    const s = sessions();
    const forged = jwt.sign({}, 'x'.repeat(48), {
      algorithm: 'HS256',
      subject: 'u-1',
      jwtid: 'j',
      expiresIn: 60,
    });
    const unsigned = jwt.sign({ sub: 'u-1', jti: 'j' }, '', { algorithm: 'none' as jwt.Algorithm });
    const noId = jwt.sign({}, secret, { algorithm: 'HS256', subject: 'u-1', expiresIn: 60 });
    for (const token of [forged, unsigned, noId, 'not-a-jwt'])
      expect(s.verify(withCookie(token))).toBeUndefined();
    expect(s.verify({ headers: {} })).toBeUndefined();
  });
});

describe('readCookie', () => {
  it('finds one cookie among others and decodes it', () => {
    expect(readCookie('a=1; tyres_session=abc%3D; b=2', SESSION_COOKIE)).toBe('abc=');
    expect(readCookie('a=1', SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(`${SESSION_COOKIE}=%E0%A4%A`, SESSION_COOKIE)).toBeUndefined();
  });
});
