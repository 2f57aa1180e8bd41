import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Which peers may tell the gateway who the client is (TRUSTED_PROXIES: comma-separated IPs and CIDRs, e.g.
 * "10.42.0.0/16, 192.0.2.7"). Nobody is trusted by default: a client address taken from a header anyone can
 * send would let a script dodge every per-client limit by rotating it.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', bits] = entry.split('/');
      const family = ipFamily(address);
      if (!family) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
      if (bits === undefined) {
        this.list.addAddress(address, family);
        continue;
      }
      const prefix = Number(bits);
      const max = family === 'ipv4' ? 32 : 128;
      if (!/^\d+$/.test(bits) || prefix > max)
        throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length (0-${max})`);
      this.list.addSubnet(address, prefix, family);
    }
    this.empty = entries.length === 0;
  }

  /** Parses the TRUSTED_PROXIES value; throws with the bad entry named. */
  static parse(value: string | undefined): TrustedProxies {
    return new TrustedProxies(
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }

  has(address: string): boolean {
    if (this.empty) return false;
    const plain = unmapIpv4(address);
    const family = ipFamily(plain);
    return family !== undefined && this.list.check(plain, family);
  }
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy (entries further left were written by whoever
 * connected to that proxy, so they prove nothing).
 */
export function clientAddress(
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
  trusted: TrustedProxies,
): string {
  const peer = unmapIpv4(req.socket.remoteAddress ?? 'unknown');
  if (!trusted.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => unmapIpv4(s.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    // A garbled entry ends the chain: the proxy that wrote the entries right of it is the last one trusted.
    if (!ipFamily(hop)) return hops[i + 1] ?? peer;
    if (!trusted.has(hop)) return hop;
  }
  // Every hop is a trusted proxy: the left-most is as close to the client as we can tell.
  return hops[0] ?? peer;
}

function ipFamily(address: string): 'ipv4' | 'ipv6' | undefined {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : undefined;
}

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is the IPv4 address 10.0.0.1. */
function unmapIpv4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

/**
 * The header that tells a service the client's address as computed above (booking caps open payment holds per
 * client with it). The edge removes any value a client sent and writes its own on every forwarded call.
 */
export const CLIENT_ADDRESS_HEADER = 'x-client-address';
