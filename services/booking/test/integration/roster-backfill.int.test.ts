/**
 * Issue 19 audit: technicians created before booking kept a roster reach it after the upgrade. The gateway's
 * migration `20261125043000_technician_roster_backfill` writes one user.status-changed.v1 per active technician into
 * its outbox; here the real gateway schema (migrated by scripts/db-migrate.mjs), the real outbox relay and the real
 * bus carry them to a real booking service.
 *  - the rows are valid envelopes of the contract (the relay publishes the payload as stored);
 *  - active technicians are rostered Monday to Friday; inactive ones and admins are not; a technician already on the
 *    roster keeps the weekdays the admin gave them;
 *  - running it again (a redelivery, or the INSERT re-run by hand) changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import {
  contracts,
  createOutboxRelay,
  createPublisher,
  parseEnvelope,
  pgExecutor,
  UserCreated,
  UserStatusChangedV1,
  type OutboxRelay,
  type Publisher,
} from '@tyres/events';
import { getAmqpUrl, migratedServiceDatabase, type TestDatabase } from '@tyres/testkit';
import { startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(120_000);

const MIGRATION = path.resolve(
  __dirname,
  '../../../gateway/prisma/migrations/20261125043000_technician_roster_backfill/migration.sql',
);

let app: BookingUnderTest;
let gateway: TestDatabase;
let gw: Pool;
let publisher: Publisher;
let relay: OutboxRelay;

const admin = () => app.identity('admin');
const users = {
  oldTech: { id: randomUUID(), username: 'old.tech', role: 'technician', active: true },
  oldTech2: { id: randomUUID(), username: 'old.tech2', role: 'technician', active: true },
  formerTech: { id: randomUUID(), username: 'former.tech', role: 'technician', active: false },
  office: { id: randomUUID(), username: 'office', role: 'admin', active: true },
  rostered: { id: randomUUID(), username: 'already.rostered', role: 'technician', active: true },
};

type RosterEntry = { userId: string; username: string; isActive: boolean; weekdays: number[] };
const roster = async () =>
  (await app.request('GET', '/api/dashboard/calendar/roster', undefined, admin()))
    .body as unknown as RosterEntry[];

/** Runs the migration's SQL as deploy does (unqualified names, in the identity schema). */
const runMigration = async () => {
  const client = await gw.connect();
  try {
    await client.query('SET search_path TO identity');
    await client.query(readFileSync(MIGRATION, 'utf8'));
  } finally {
    client.release();
  }
};

/** The relay publishes rows once available: the migration delays them 5 minutes (booking's rollout); not here. */
const publishNow = async () => {
  await gw.query(`UPDATE identity.outbox_events SET available_at = now() WHERE published_at IS NULL`);
  for (;;) {
    const { published, failed } = await relay.runOnce();
    if (failed > 0) throw new Error('the relay failed to publish');
    if (published === 0) break;
  }
};

beforeAll(async () => {
  app = await startTestBooking('roster-backfill');
  gateway = await migratedServiceDatabase('gateway', 'roster-backfill-gw');
  gw = new Pool({ connectionString: gateway.url, max: 2 });
  gw.on('error', () => undefined);
  publisher = createPublisher({
    url: await getAmqpUrl(),
    prefix: app.prefix,
    name: 'roster-backfill-gateway',
  });
  relay = createOutboxRelay({ db: pgExecutor(gw), schema: 'identity', publisher });

  // One technician was rostered through a user event after the roster shipped, and given Mondays only.
  await app.publish(UserCreated, {
    userId: users.rostered.id,
    username: users.rostered.username,
    email: null,
    role: 'technician',
    isActive: true,
    createdAt: new Date(Date.now() - 60_000).toISOString(),
  });
  for (let i = 0; (await roster()).length === 0; i++) {
    if (i > 200) throw new Error('the rostered technician never arrived');
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(
    (
      await app.request(
        'PUT',
        `/api/dashboard/calendar/roster/${users.rostered.id}`,
        { weekdays: [1] },
        admin(),
      )
    ).status,
  ).toBe(200);

  // The gateway's users as they were before the upgrade.
  for (const u of Object.values(users))
    await gw.query(
      `INSERT INTO identity.users (id, username, password, role, is_active, created_at, updated_at)
       VALUES ($1, $2, 'x', $3::identity."Role", $4, now() - interval '1 year', now())`,
      [u.id, u.username, u.role, u.active],
    );
});

afterAll(async () => {
  await relay?.stop().catch(() => undefined);
  await publisher?.close().catch(() => undefined);
  await gw?.end().catch(() => undefined);
  await gateway?.drop().catch(() => undefined);
  await app?.stop();
});

describe("existing technicians reach booking's roster after the upgrade (issue 19 audit)", () => {
  it('writes one user.status-changed.v1 per active technician, in the contract shape, delayed for the rollout', async () => {
    await runMigration();
    const { rows } = await gw.query<{
      type: string;
      payload: unknown;
      trace_context: unknown;
      delay_s: number;
    }>(
      `SELECT type, payload, trace_context, extract(epoch FROM available_at - created_at)::int AS delay_s
         FROM identity.outbox_events WHERE published_at IS NULL ORDER BY payload->'data'->>'username'`,
    );
    expect(rows.map((r) => (r.payload as { data: { username: string } }).data.username)).toEqual([
      'already.rostered',
      'old.tech',
      'old.tech2',
    ]);
    for (const row of rows) {
      expect(row.type).toBe('user.status-changed.v1');
      expect(row.trace_context).toBeNull();
      expect(row.delay_s).toBe(300);
      const { envelope, contract } = parseEnvelope(row.payload, contracts);
      expect(contract).toBe(UserStatusChangedV1);
      expect(envelope).toEqual(row.payload); // nothing stripped or defaulted: exactly the contract's shape
      expect(envelope).toMatchObject({
        version: 1,
        source: 'gateway',
        data: { role: 'technician', isActive: true },
      });
    }
  });

  it('booking rosters them Monday to Friday; inactive technicians and admins stay off; set weekdays are kept', async () => {
    await publishNow();
    const deadline = Date.now() + 20_000;
    let list: RosterEntry[] = [];
    while (Date.now() < deadline) {
      list = await roster();
      if (list.length >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const byId = new Map(list.map((t) => [t.userId, t]));
    expect(byId.get(users.oldTech.id)).toMatchObject({
      username: 'old.tech',
      isActive: true,
      weekdays: [1, 2, 3, 4, 5],
    });
    expect(byId.get(users.oldTech2.id)).toMatchObject({ isActive: true, weekdays: [1, 2, 3, 4, 5] });
    expect(byId.get(users.rostered.id)).toMatchObject({ isActive: true, weekdays: [1] });
    expect(byId.has(users.formerTech.id)).toBe(false);
    expect(byId.has(users.office.id)).toBe(false);
    expect(list).toHaveLength(3);
    // They count: three technicians on a Tuesday (Mondays-only one aside), so a slot holds two jobs.
    const cap = await app.request(
      'GET',
      '/api/dashboard/calendar/capacity?date=2032-05-04',
      undefined,
      admin(),
    );
    expect(cap.body).toMatchObject({ rostered: 2, onLeave: 0, capacity: 2 });
  });

  it('running it again (redelivery, a re-run) changes nothing; a newer change is never undone', async () => {
    // The admin deactivates old.tech2 after the backfill: a newer fact.
    await app.publish(UserStatusChangedV1, {
      userId: users.oldTech2.id,
      username: users.oldTech2.username,
      role: 'technician',
      isActive: false,
      changedAt: new Date(Date.now() + 60_000).toISOString(),
    });
    for (let i = 0; ; i++) {
      const t = (await roster()).find((r) => r.userId === users.oldTech2.id);
      if (t && !t.isActive) break;
      if (i > 200) throw new Error('the deactivation never arrived');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The same rows again (as a redelivery would bring them), and the INSERT re-run.
    await gw.query(`UPDATE identity.outbox_events SET published_at = NULL`);
    await runMigration();
    await publishNow();
    await new Promise((r) => setTimeout(r, 1_500));
    const { rows } = await app.pg.query(
      `SELECT user_id::text AS id, is_active, weekdays FROM booking.roster_technicians ORDER BY username`,
    );
    expect(rows).toEqual([
      { id: users.rostered.id, is_active: true, weekdays: [1] },
      { id: users.oldTech.id, is_active: true, weekdays: [1, 2, 3, 4, 5] },
      { id: users.oldTech2.id, is_active: false, weekdays: [1, 2, 3, 4, 5] },
    ]);
  });
});
