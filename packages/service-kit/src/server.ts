import type { Duplex } from 'node:stream';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface HttpServerHandle {
  server: http.Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to timeoutMs), then drops what is left. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * What Node's HTTP parser refuses before any route runs (a request line or header over 16 KB, a malformed request)
 * gets the same JSON error shape as every other answer, instead of Node's empty 400/431.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLong = err.code === 'HPE_HEADER_OVERFLOW' || err.code === 'HPE_URI_TOO_LONG';
  const status = tooLong ? 431 : 400;
  const body = JSON.stringify(
    tooLong
      ? { message: 'The request address or headers are too long.', code: 'request_too_long' }
      : { message: 'The request is malformed.', code: 'malformed_request' },
  );
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startHttpServer(
  app: Express | http.RequestListener,
  port: number,
  host = '0.0.0.0',
): Promise<HttpServerHandle> {
  const server = http.createServer(app as http.RequestListener);
  server.on('clientError', answerClientError);
  // Keep-alive must outlive the load balancer's idle timeout or clients see resets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: actualPort,
    close: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, timeoutMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        // Idle keep-alive sockets would otherwise hold close() open until they time out.
        server.closeIdleConnections();
      }),
  };
}

type Closer = { name: string; close: () => Promise<unknown> | unknown };

interface LoggerLike {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Ordered shutdown: closers run in the order they were added (add the HTTP server first, then consumers,
 * workers, relays, and finally connections), each awaited, errors logged, never skipped.
 */
export class Lifecycle {
  private closers: Closer[] = [];
  private stopping?: Promise<void>;

  constructor(private readonly logger: LoggerLike) {}

  onShutdown(name: string, close: Closer['close']): void {
    this.closers.push({ name, close });
  }

  shutdown(reason: string): Promise<void> {
    if (!this.stopping) {
      this.stopping = (async () => {
        this.logger.info({ reason }, 'shutting down');
        for (const closer of this.closers) {
          try {
            await closer.close();
          } catch (err) {
            this.logger.error({ err, closer: closer.name }, 'error while closing');
          }
        }
        this.logger.info({}, 'shutdown complete');
      })();
    }
    return this.stopping;
  }

  /** SIGTERM (Kubernetes) and SIGINT (Ctrl-C) both drain; a second signal or the deadline exits hard. */
  handleSignals(timeoutMs: number, exit: (code: number) => void = (code) => process.exit(code)): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) {
        exit(1);
        return;
      }
      const deadline = setTimeout(() => {
        this.logger.error({ timeoutMs }, 'shutdown deadline passed, exiting');
        exit(1);
      }, timeoutMs + 2000);
      deadline.unref();
      void this.shutdown(signal).then(() => exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
}
