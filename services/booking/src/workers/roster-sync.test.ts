import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { GatewayUnavailableError, type RosterSync } from '../app/roster-sync';
import { httpGatewayClient } from '../http/gateway-client';
import { createRosterSyncWorker } from './roster-sync';

function recordingLogger() {
  const lines: { level: number; msg: string; retryInMs?: number; reason?: string }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) },
  );
  return { logger, lines };
}

describe('the roster sync worker', () => {
  it('retries with doubling backoff (capped), one warning per failed attempt, until one success; then stops', async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    const sync = {
      runOnce: () => {
        calls++;
        if (calls <= 4) return Promise.reject(new GatewayUnavailableError('answered 404', true));
        return Promise.resolve({ kind: 'synced' as const, technicians: 2, recorded: true });
      },
    } as unknown as RosterSync;
    const worker = createRosterSyncWorker({ sync, logger, retryMs: 10, retryMaxMs: 40 });
    worker.start();
    await worker.done;
    await new Promise((r) => setTimeout(r, 100));
    await worker.stop();
    expect(calls).toBe(5);
    const warns = lines.filter((l) => l.level === 40);
    expect(warns.map((w) => [w.reason, w.retryInMs])).toEqual([
      ['answered 404', 10],
      ['answered 404', 20],
      ['answered 404', 40],
      ['answered 404', 40],
    ]);
    expect(lines.filter((l) => l.level === 30).map((l) => l.msg)).toEqual([
      "roster synced with the gateway's active technicians",
    ]);
  });

  it('never throws out of the timer on an unexpected error (a database outage), and stop() ends the retries', async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    const sync = {
      runOnce: () => {
        calls++;
        return Promise.reject(new Error('database unavailable'));
      },
    } as unknown as RosterSync;
    const worker = createRosterSyncWorker({ sync, logger, retryMs: 5, retryMaxMs: 5 });
    worker.start();
    await new Promise((r) => setTimeout(r, 60));
    await worker.stop();
    const after = calls;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(after);
    expect(after).toBeGreaterThan(1);
    expect(lines.every((l) => l.level === 40 && l.reason === 'database unavailable')).toBe(true);
  });
});

describe('the gateway client', () => {
  let server: http.Server;
  let url = '';
  let answer: (res: http.ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    server = http.createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads the technicians', async () => {
    const t = {
      userId: '5a0f3f5e-8d1c-4d7e-9d3f-0c6b1b1f2a11',
      username: 'tina',
      isActive: true,
      changedAt: '2026-01-02T03:04:05.000Z',
    };
    answer = (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ technicians: [t] }));
    await expect(httpGatewayClient(url).technicians()).resolves.toEqual([t]);
  });

  it.each([
    ['a gateway without the route (404)', (res: http.ServerResponse) => res.writeHead(404).end('no'), true],
    ['a 502', (res: http.ServerResponse) => res.writeHead(502).end(), false],
    ['another shape', (res: http.ServerResponse) => res.writeHead(200).end('{"users":[]}'), false],
    ['a dropped connection', (res: http.ServerResponse) => res.destroy(), false],
  ])('turns %s into GatewayUnavailableError', async (_what, how, absent) => {
    answer = how;
    const err = (await httpGatewayClient(url)
      .technicians()
      .catch((e: unknown) => e)) as GatewayUnavailableError;
    expect(err).toBeInstanceOf(GatewayUnavailableError);
    expect(err.absent).toBe(absent);
  });

  it('gives up on a silent gateway after its timeout', async () => {
    answer = () => undefined;
    const started = Date.now();
    await expect(httpGatewayClient(url, 100).technicians()).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the roster sync worker and the broker', () => {
  it("waits for booking's queues (the bus) before the first pull, warning at most once per retry interval", async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    let ready = false;
    const sync = {
      runOnce: () => {
        calls++;
        return Promise.resolve({ kind: 'synced' as const, technicians: 0, recorded: true });
      },
    } as unknown as RosterSync;
    const worker = createRosterSyncWorker({
      sync,
      logger,
      retryMs: 1000,
      retryMaxMs: 1000,
      ready: () => ready,
    });
    worker.start();
    await new Promise((r) => setTimeout(r, 150));
    expect(calls).toBe(0);
    ready = true;
    await worker.done;
    await worker.stop();
    expect(calls).toBe(1);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
  });
});
