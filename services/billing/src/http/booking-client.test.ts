import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, contextFrom, installContextAndPropagation } from '@tyres/telemetry';
import { httpBookingClient } from './booking-client';

describe('billing → booking calls carry the trace', () => {
  let server: http.Server;
  let seen: http.IncomingHttpHeaders | undefined;
  beforeAll(async () => {
    installContextAndPropagation();
    server = http.createServer((req, res) => {
      seen = req.headers;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the active trace as traceparent, so booking continues it', async () => {
    const { port } = server.address() as AddressInfo;
    const client = httpBookingClient(`http://127.0.0.1:${port}`);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = contextFrom({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await context.with(parent, () => client.byToken('tok', {}));
    expect(seen?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});
