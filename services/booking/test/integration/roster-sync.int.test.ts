/**
 * Issue 19 audit: technicians created before booking kept a roster reach it after the upgrade, pulled by booking
 * (app/roster-sync.ts, GET /internal/technicians on the gateway) rather than pushed as events, which the exchange
 * drops while booking's new version has no queue bound to them. A stand-in gateway answers the route as the real
 * one does (services/gateway/src/http/internal-routes.ts; its shape is the gateway's gatewayInternalPaths):
 *  - the gateway is up first: booking rosters its active technicians Monday to Friday at start and records it;
 *  - a gateway without the route (404) or unreachable: booking keeps running, retries with backoff, and syncs once
 *    the route is there; a technician already rostered keeps their weekdays;
 *  - a user event newer than the snapshot's fact is never overwritten by it;
 *  - it runs once: after the marker, no replica or restart asks the gateway again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { pgExecutor, UserCreated, UserStatusChangedV1 } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { RosterSync } from '../../src/app/roster-sync';
import { httpGatewayClient } from '../../src/http/gateway-client';
import { startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(120_000);

type Technician = { userId: string; username: string; isActive: boolean; changedAt: string };
type RosterEntry = { userId: string; username: string; isActive: boolean; weekdays: number[] };

/** The gateway as booking sees it: the route absent (an older gateway), down, or answering its technicians. */
class FakeGateway {
  mode: 'absent' | 'down' | 'up' = 'up';
  technicians: Technician[] = [];
  asked = 0;
  private server = http.createServer((req, res) => {
    if (req.url !== '/internal/technicians' || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    this.asked++;
    if (this.mode === 'down') return void res.destroy();
    if (this.mode === 'absent')
      return void res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html>');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ technicians: this.technicians }));
  });
  url = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const tech = (username: string, changedAt: string, isActive = true): Technician => ({
  userId: randomUUID(),
  username,
  isActive,
  changedAt,
});
const YEAR_AGO = new Date(Date.now() - 365 * 86_400_000).toISOString();

const rosterOf = async (app: BookingUnderTest) =>
  (await app.request('GET', '/api/dashboard/calendar/roster', undefined, app.identity('admin')))
    .body as unknown as RosterEntry[];
const markerOf = async (app: BookingUnderTest) =>
  (await app.pg.query<{ technicians: number }>(`SELECT technicians FROM booking.roster_sync`)).rows;

describe('the gateway is up first: booking syncs its technicians at start, once', () => {
  const gateway = new FakeGateway();
  let app: BookingUnderTest;
  const oldTech = tech('old.tech', YEAR_AGO);
  const oldTech2 = tech('old.tech2', YEAR_AGO);

  beforeAll(async () => {
    await gateway.start();
    gateway.technicians = [oldTech, oldTech2];
    app = await startTestBooking('roster-sync-up', {
      GATEWAY_URL: gateway.url,
      ROSTER_SYNC_RETRY_MS: '100',
      ROSTER_SYNC_RETRY_MAX_MS: '200',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await gateway.stop();
  });

  it('rosters the active technicians Monday to Friday and records the sync', async () => {
    await app.service.rosterSync.done;
    const roster = await rosterOf(app);
    expect(roster).toEqual(
      [
        { userId: oldTech.userId, username: 'old.tech', isActive: true, weekdays: [1, 2, 3, 4, 5] },
        { userId: oldTech2.userId, username: 'old.tech2', isActive: true, weekdays: [1, 2, 3, 4, 5] },
      ].map((t) => expect.objectContaining(t)),
    );
    expect(await markerOf(app)).toEqual([{ technicians: 2 }]);
    // They count: two technicians on a weekday, so a slot holds two jobs.
    const cap = await app.request(
      'GET',
      '/api/dashboard/calendar/capacity?date=2032-05-04',
      undefined,
      app.identity('admin'),
    );
    expect(cap.body).toMatchObject({ rostered: 2, onLeave: 0, capacity: 2 });
    expect(gateway.asked).toBe(1);
  });

  it('runs once: no further call, and another replica or a restart finds the marker and does not ask', async () => {
    gateway.technicians = [...gateway.technicians, tech('late.tech', new Date().toISOString())];
    await new Promise((r) => setTimeout(r, 600)); // several retry intervals
    expect(gateway.asked).toBe(1);
    const replica = new RosterSync({
      sql: pgExecutor(app.pg),
      gateway: httpGatewayClient(gateway.url),
      clock: () => new Date(),
      onRosterChanged: () => undefined,
    });
    expect(await replica.runOnce()).toEqual({ kind: 'already' });
    expect(gateway.asked).toBe(1);
    expect((await rosterOf(app)).map((t) => t.username)).toEqual(['old.tech', 'old.tech2']);
  });
});

describe('the gateway without the route (an older gateway), then with it', () => {
  const gateway = new FakeGateway();
  let app: BookingUnderTest;
  const snapshotAt = new Date(Date.now() - 60_000).toISOString();
  const oldTech = tech('old.tech', YEAR_AGO);
  const leaver = tech('leaver', snapshotAt); // the snapshot still says active…
  const rostered = tech('already.rostered', snapshotAt);

  beforeAll(async () => {
    await gateway.start();
    gateway.mode = 'absent';
    gateway.technicians = [oldTech, leaver, rostered];
    app = await startTestBooking('roster-sync-late', {
      GATEWAY_URL: gateway.url,
      ROSTER_SYNC_RETRY_MS: '100',
      ROSTER_SYNC_RETRY_MAX_MS: '300',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await gateway.stop();
  });

  it('keeps running and retrying while the route is absent or the gateway is down, rostering nobody', async () => {
    await waitFor(() => gateway.asked >= 3, { timeoutMs: 10_000, message: 'retries' });
    gateway.mode = 'down';
    const asked = gateway.asked;
    await waitFor(() => gateway.asked >= asked + 2, { timeoutMs: 10_000, message: 'retries while down' });
    expect((await app.request('GET', '/readyz')).status).toBe(200);
    expect(await rosterOf(app)).toEqual([]);
    expect(await markerOf(app)).toEqual([]);
  });

  it('once the route is there: synced, weekdays an admin set are kept, and a newer event is not overwritten', async () => {
    const admin = app.identity('admin');
    // Meanwhile a technician arrives through a user event and is given Mondays only…
    await app.publish(UserCreated, {
      userId: rostered.userId,
      username: rostered.username,
      email: null,
      role: 'technician',
      isActive: true,
      createdAt: new Date(Date.now() - 120_000).toISOString(),
    });
    await waitFor(async () => (await rosterOf(app)).length === 1, {
      timeoutMs: 20_000,
      message: 'user.created',
    });
    expect(
      (
        await app.request(
          'PUT',
          `/api/dashboard/calendar/roster/${rostered.userId}`,
          { weekdays: [1] },
          admin,
        )
      ).status,
    ).toBe(200);
    // …and another is deactivated after the gateway's snapshot of them was taken (a newer fact).
    await app.publish(UserStatusChangedV1, {
      userId: leaver.userId,
      username: leaver.username,
      role: 'technician',
      isActive: false,
      changedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await rosterOf(app)).some((t) => t.userId === leaver.userId), {
      timeoutMs: 20_000,
      message: 'user.status-changed',
    });

    gateway.mode = 'up';
    await app.service.rosterSync.done;
    const byId = new Map((await rosterOf(app)).map((t) => [t.userId, t]));
    expect(byId.get(oldTech.userId)).toMatchObject({ isActive: true, weekdays: [1, 2, 3, 4, 5] });
    expect(byId.get(rostered.userId)).toMatchObject({ isActive: true, weekdays: [1] });
    expect(byId.get(leaver.userId)).toMatchObject({ isActive: false });
    expect(byId.size).toBe(3);
    expect(await markerOf(app)).toEqual([{ technicians: 3 }]);

    const asked = gateway.asked;
    await new Promise((r) => setTimeout(r, 800));
    expect(gateway.asked).toBe(asked);
  });
});
