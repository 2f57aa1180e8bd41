import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';

export interface TcpProxy {
  /** Local port the proxy listens on (kept across pause/resume). */
  readonly port: number;
  /** `url` with host and port replaced by the proxy's (e.g. to point a publisher at it). */
  rewrite(url: string): string;
  /** Simulates an outage: cuts every open connection and refuses new ones. */
  pause(): Promise<void>;
  /** Ends the outage: accepts connections again on the same port. */
  resume(): Promise<void>;
  /** Connections currently open through the proxy. */
  readonly openConnections: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a real server (Postgres, RabbitMQ, Redis) whose outage a test controls: `pause()`
 * drops every connection like a crashed broker, `resume()` brings it back. Useful to prove reconnect and
 * catch-up behaviour without stopping shared infrastructure.
 */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const defaultPorts: Record<string, number> = {
    'amqp:': 5672,
    'postgresql:': 5432,
    'postgres:': 5432,
    'redis:': 6379,
  };
  const targetHost = target.hostname || '127.0.0.1';
  const targetPort = Number(target.port) || defaultPorts[target.protocol] || 0;
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect({ host: targetHost, port: targetPort });
        sockets.add(client);
        sockets.add(upstream);
        const cleanup = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', cleanup).on('close', cleanup);
        upstream.on('error', cleanup).on('close', cleanup);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stop = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get openConnections() {
      return sockets.size / 2;
    },
    rewrite(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    pause: stop,
    async resume() {
      if (!server) await listen();
    },
    close: stop,
  };
}
