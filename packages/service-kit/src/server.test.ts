import type http from 'node:http';
import net from 'node:net';
import { startHttpServer } from './server';

/** Sends raw bytes and returns the whole answer (the server closes the connection). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answer JSON with a message: 431 for an over-long address or header, 400 for a malformed request', async () => {
    const handle = await startHttpServer(
      (_req: http.IncomingMessage, res: http.ServerResponse) => res.end('ok'),
      0,
      '127.0.0.1',
    );
    try {
      const long = await raw(
        handle.port,
        `GET /api/time-slots?date=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`,
      );
      expect(long).toMatch(/^HTTP\/1.1 431 /);
      expect(long).toContain('Content-Type: application/json');
      expect(JSON.parse(long.slice(long.indexOf('\r\n\r\n') + 4))).toEqual({
        message: 'The request address or headers are too long.',
        code: 'request_too_long',
      });
      const header = await raw(
        handle.port,
        `GET / HTTP/1.1\r\nHost: a\r\nx-fuzz: ${'y'.repeat(20_000)}\r\n\r\n`,
      );
      expect(header).toMatch(/^HTTP\/1.1 431 /);
      const malformed = await raw(handle.port, 'NOT A REQUEST\r\n\r\n');
      expect(malformed).toMatch(/^HTTP\/1.1 400 /);
      expect(JSON.parse(malformed.slice(malformed.indexOf('\r\n\r\n') + 4))).toMatchObject({
        code: 'malformed_request',
      });
    } finally {
      await handle.close(1000);
    }
  });
});
