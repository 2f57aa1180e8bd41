import { Client, startTestGateway, type GatewayUnderTest } from './harness';

jest.setTimeout(60_000);

let direct: GatewayUnderTest;
let behindProxy: GatewayUnderTest;

beforeAll(async () => {
  const limits = { LOGIN_MAX_FAILURES_PER_USERNAME: '5', LOGIN_MAX_FAILURES_PER_ADDRESS: '8' };
  [direct, behindProxy] = await Promise.all([
    startTestGateway('throttle-direct', limits),
    // The tests' loopback connection plays the ingress.
    startTestGateway('throttle-proxy', { ...limits, TRUSTED_PROXIES: '127.0.0.1' }),
  ]);
});
afterAll(async () => {
  await direct?.stop();
  await behindProxy?.stop();
}, 120_000);

const login = (gw: GatewayUnderTest, username: string, forwardedFor?: string) =>
  new Client(gw.baseUrl).request(
    'POST',
    '/api/login',
    { username, password: 'wrong-password' },
    forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {},
  );

describe('login throttling per client address', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await login(direct, `rotating-${i}`, `198.51.100.${i + 1}`)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses.slice(8)).toEqual(Array(4).fill(429));
  });

  it('uses the real client address from a trusted proxy, not what the client wrote before it', async () => {
    for (let i = 0; i < 8; i++)
      expect((await login(behindProxy, `guess-${i}`, '203.0.113.1')).status).toBe(401);
    expect((await login(behindProxy, 'guess-9', '203.0.113.1')).status).toBe(429);
    // A made-up entry on the left does not make it another client.
    expect((await login(behindProxy, 'guess-10', '192.0.2.200, 203.0.113.1')).status).toBe(429);
    // Another customer behind the same proxy is not blocked.
    expect((await login(behindProxy, 'guess-11', '203.0.113.2')).status).toBe(401);
  });
});

describe('login throttling per username', () => {
  it('lets at most the limit of 30 parallel wrong guesses reach the password check', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(behindProxy, 'boss', `198.51.100.${i + 1}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(30);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.body.message).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
    }
    // The right password is refused too while the username is blocked.
    const real = await new Client(behindProxy.baseUrl).request(
      'POST',
      '/api/login',
      { username: 'boss', password: behindProxy.adminPassword },
      { 'X-Forwarded-For': '198.51.100.99' },
    );
    expect(real.status).toBe(429);
  });
});
