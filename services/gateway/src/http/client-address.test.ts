import { clientAddress, TrustedProxies } from './client-address';

const req = (peer: string, xff?: string) => ({
  socket: { remoteAddress: peer } as never,
  headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
});

describe('clientAddress', () => {
  const none = TrustedProxies.parse('');
  const ingress = TrustedProxies.parse('10.42.0.0/16, 192.0.2.7, fd00::/8');

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(req('127.0.0.1', '203.0.113.9'), none)).toBe('127.0.0.1');
    expect(clientAddress(req('::ffff:10.0.0.5', '203.0.113.9'), none)).toBe('10.0.0.5');
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    expect(clientAddress(req('10.43.0.1', '203.0.113.9'), ingress)).toBe('10.43.0.1');
  });

  it('takes the right-most untrusted X-Forwarded-For entry from a trusted proxy', () => {
    expect(clientAddress(req('10.42.3.4', '203.0.113.9'), ingress)).toBe('203.0.113.9');
    // The client wrote the left entries itself; only what the proxies appended counts.
    expect(clientAddress(req('::ffff:10.42.3.4', '1.1.1.1, 203.0.113.9, 192.0.2.7'), ingress)).toBe(
      '203.0.113.9',
    );
    expect(clientAddress(req('fd00::1', '2001:db8::5'), ingress)).toBe('2001:db8::5');
  });

  it('stops at a garbled entry and falls back to the peer without a header', () => {
    expect(clientAddress(req('10.42.3.4', 'nonsense, 203.0.113.9'), ingress)).toBe('203.0.113.9');
    expect(clientAddress(req('10.42.3.4', '203.0.113.9, nonsense'), ingress)).toBe('10.42.3.4');
    expect(clientAddress(req('10.42.3.4'), ingress)).toBe('10.42.3.4');
  });

  it('refuses a TRUSTED_PROXIES value that is not addresses', () => {
    expect(() => TrustedProxies.parse('ingress')).toThrow(/"ingress" is not an IP address/);
    expect(() => TrustedProxies.parse('10.0.0.0/33')).toThrow(/bad prefix length/);
  });
});
