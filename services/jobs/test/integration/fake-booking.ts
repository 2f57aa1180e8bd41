import express, { type Request, type Response } from 'express';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { identityMiddleware, requireStaff } from '@tyres/service-kit';

/**
 * A stand-in for the booking service's internal reservation API, so these tests do not depend on booking's progress:
 *   PUT    /internal/reservations/:jobId { scheduledDate, timeSlot } → 200 { jobId, scheduledDate, timeSlot } | 409 | 400 | 404
 *   DELETE /internal/reservations/:jobId → 204 (idempotent)
 * The table enforces booking's rule: one job per (date, slot). Node runs each handler to completion, so the
 * check-and-set below is atomic, like booking's unique index.
 */
export interface FakeBooking {
  url: string;
  /** Seeds a reservation (what booking does when it accepts a booking). */
  reserve(jobId: string, scheduledDate: string, timeSlot: string): void;
  slotOf(jobId: string): { scheduledDate: string; timeSlot: string } | undefined;
  holderOf(scheduledDate: string, timeSlot: string): string | undefined;
  /** Blocks a slot (as an admin would), so a move into it is refused. */
  block(scheduledDate: string, timeSlot: string): void;
  /** Requests received (method, jobId, headers). */
  readonly calls: { method: string; jobId: string; requestId?: string; identity?: string; body?: unknown }[];
  /**
   * Runs before each request is handled; may delay, answer instead ("respond"), or let it through and act after
   * the change was applied ("after").
   */
  intercept?: (call: {
    method: string;
    jobId: string;
    body: unknown;
  }) => Promise<Intercept | void> | Intercept | void;
  /** Stops listening (connections are refused) until `resume()`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export type Intercept =
  | { kind: 'respond'; status: number; body?: unknown }
  | { kind: 'after'; run: () => Promise<void> | void; status?: number };

const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
const key = (date: string, slot: string) => `${date}|${slot}`;

export async function startFakeBooking(publicKey: string): Promise<FakeBooking> {
  let port = 0;
  const byJob = new Map<string, { scheduledDate: string; timeSlot: string }>();
  const bySlot = new Map<string, string>();
  const blocked = new Set<string>();
  const app = express();
  app.use(express.json());
  app.use(identityMiddleware(publicKey));
  app.use('/internal', requireStaff);

  const fake: FakeBooking = {
    url: '',
    calls: [],
    reserve(jobId, scheduledDate, timeSlot) {
      const held = bySlot.get(key(scheduledDate, timeSlot));
      if (held && held !== jobId)
        throw new Error(`fake booking: ${scheduledDate} ${timeSlot} already held by ${held}`);
      const previous = byJob.get(jobId);
      if (previous) bySlot.delete(key(previous.scheduledDate, previous.timeSlot));
      byJob.set(jobId, { scheduledDate, timeSlot });
      bySlot.set(key(scheduledDate, timeSlot), jobId);
    },
    slotOf: (jobId) => byJob.get(jobId),
    holderOf: (date, slot) => bySlot.get(key(date, slot)),
    block: (date, slot) => void blocked.add(key(date, slot)),
    pause: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    resume: () => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve())),
    close: () =>
      new Promise((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const record = (req: Request) => {
    const call = {
      method: req.method,
      jobId: String(req.params.jobId),
      requestId: req.header('x-request-id'),
      identity: req.identity?.username,
      body: req.body as unknown,
    };
    fake.calls.push(call);
    return call;
  };

  const intercepted = async (req: Request, res: Response): Promise<Intercept | undefined> => {
    const result = await fake.intercept?.({
      method: req.method,
      jobId: String(req.params.jobId),
      body: req.body,
    });
    if (result && result.kind === 'respond') {
      if (result.status === 0) {
        req.socket.destroy();
      } else res.status(result.status).json(result.body ?? {});
      return result;
    }
    return result ?? undefined;
  };

  app.put('/internal/reservations/:jobId', async (req, res) => {
    record(req);
    const step = await intercepted(req, res);
    if (step?.kind === 'respond') return;
    const jobId = String(req.params.jobId);
    const { scheduledDate, timeSlot } = (req.body ?? {}) as { scheduledDate?: string; timeSlot?: string };
    if (
      typeof scheduledDate !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(scheduledDate) ||
      !SLOTS.includes(String(timeSlot))
    ) {
      res.status(400).json({ message: 'Invalid date or time slot selected' });
      return;
    }
    if (!byJob.has(jobId)) {
      res.status(404).json({ message: 'No reservation for this job' });
      return;
    }
    const k = key(scheduledDate, timeSlot as string);
    const holder = bySlot.get(k);
    if (blocked.has(k) || (holder && holder !== jobId)) {
      res
        .status(409)
        .json({ message: 'This time slot is no longer available. Please select a different time slot.' });
      return;
    }
    fake.reserve(jobId, scheduledDate, timeSlot as string);
    if (step?.kind === 'after') {
      await step.run();
      if (step.status === 0) {
        req.socket.destroy();
        return;
      }
      if (step.status) {
        res.status(step.status).json({ message: 'fake failure after applying' });
        return;
      }
    }
    res.json({ jobId, scheduledDate, timeSlot });
  });

  app.delete('/internal/reservations/:jobId', async (req, res) => {
    record(req);
    const step = await intercepted(req, res);
    if (step?.kind === 'respond') return;
    const jobId = String(req.params.jobId);
    const held = byJob.get(jobId);
    if (held) {
      byJob.delete(jobId);
      bySlot.delete(key(held.scheduledDate, held.timeSlot));
    }
    if (step?.kind === 'after') await step.run();
    res.status(204).end();
  });

  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}
