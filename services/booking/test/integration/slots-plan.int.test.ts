import { Pool } from 'pg';
import { migratedServiceDatabase, type TestDatabase } from '@tyres/testkit';
import type { Prepared, Sql } from '../../src/db/client';
import { readSlots } from '../../src/db/slots';

jest.setTimeout(60_000);

const BOOKINGS = 50_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The exact statement (name, text) the public slot lists prepare for a date, captured instead of run. */
async function slotStatement(date: string) {
  let captured: { name: string; text: string; values: unknown[] } | undefined;
  const prepared = ((name: string, text: string, values: unknown[]) => {
    captured = { name, text, values };
    return Promise.resolve([]);
  }) as Prepared;
  await readSlots({} as Sql, date, prepared);
  return captured!;
}

/**
 * The public time slots at 10× today's data (issue 16: p99 < 50 ms through the gateway with 50,000 bookings on the
 * books): a date's blocks and live reservations are read through the (date, slot) indexes and the bookings' primary
 * key, never by scanning the bookings or the reservations; in the custom plan and in the generic plan the named
 * prepared statement settles on after five executions.
 */
describe('booking: slot list plans with 50,000 bookings', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await migratedServiceDatabase('booking', 'booking-slots-plan');
    pool = new Pool({ connectionString: database.url, max: 1 });
    await pool.query(
      `INSERT INTO booking.customers (id, name, email, email_key, phone, phone_key, updated_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'Customer ' || g, 'c' || g || '@example.com',
              'c' || g || '@example.com', '04' || lpad(g::text, 8, '0'), '04' || lpad(g::text, 8, '0'), now()
       FROM generate_series(0, ${BOOKINGS / 5 - 1}) AS g`,
    );
    await pool.query(
      `INSERT INTO booking.vehicles (id, customer_id, make, model, year, registration, updated_at)
       SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid,
              ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'Toyota', 'Corolla', 2018, 'R' || g, now()
       FROM generate_series(0, ${BOOKINGS / 5 - 1}) AS g`,
    );
    // Four slots a day back from 60 days ahead; per (date, slot) a live booking, a released one (cancelled) and a
    // quote that never held a slot.
    await pool.query(
      `INSERT INTO booking.bookings (id, job_id, job_number, status, channel, customer_id, vehicle_id, customer_name,
         customer_email, customer_phone, vehicle_make, vehicle_model, vehicle_year, vehicle_registration, service_type,
         scheduled_date, time_slot, address, suburb, postcode, payment_method, payment_status, items, subtotal, discount,
         gst, total, created_at, updated_at)
       SELECT gen_random_uuid(), gen_random_uuid(), 'PLAN-' || lpad(g::text, 6, '0'),
              (CASE WHEN g % 3 = 2 THEN 'expired' ELSE 'confirmed' END)::booking."BookingStatus", 'online',
              ('00000000-0000-4000-8000-' || lpad(to_hex(g % ${BOOKINGS / 5}), 12, '0'))::uuid,
              ('00000000-0000-4000-9000-' || lpad(to_hex(g % ${BOOKINGS / 5}), 12, '0'))::uuid,
              'Customer ' || g, 'c' || g || '@example.com', '0412345678', 'Toyota', 'Corolla', 2018, 'R' || g, 'new-tyres',
              date '2031-03-01' - (g / 12), (ARRAY['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'])[1 + (g / 3) % 4],
              '1 Plan Street', 'Rockingham', '6168', 'onsite', 'pending', '[]'::jsonb, 675.80, 0, 61.44, 675.80,
              now() - g * interval '20 minutes', now()
       FROM generate_series(0, ${BOOKINGS - 1}) AS g`,
    );
    await pool.query(
      `INSERT INTO booking.slot_reservations (id, job_id, booking_id, date, time_slot, kind, released_at, release_reason, updated_at)
       SELECT gen_random_uuid(), b.job_id, b.id, b.scheduled_date, b.time_slot, 'booking',
              CASE WHEN s.g % 3 = 1 THEN now() END, CASE WHEN s.g % 3 = 1 THEN 'cancelled' END, now()
       FROM booking.bookings b CROSS JOIN LATERAL (SELECT substr(b.job_number, 6)::int AS g) s
       WHERE s.g % 3 <> 2`,
    );
    // Years of admin blocks and unblocks: every change leaves a (date, slot) row.
    await pool.query(
      `INSERT INTO booking.time_slots (id, date, slot, is_available, blocked_reason, updated_at)
       SELECT gen_random_uuid(), date '2031-03-01' - d, (ARRAY['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'])[1 + d % 4],
              d % 3 <> 0, CASE WHEN d % 3 = 0 THEN 'Staff training' END, now()
       FROM generate_series(0, 2999) AS d`,
    );
    for (const table of ['bookings', 'slot_reservations', 'time_slots'])
      await pool.query(`VACUUM ANALYZE booking.${table}`);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const expectIndexed = (plan: PlanNode) => {
    const nodes = nodesOf(plan);
    // Issue 19: the roster, leave, calendar blocks and opened holidays are a few dozen rows at most (one per
    // technician, leave or block): a sequential scan of them is the cheapest read and stays so.
    const SMALL = ['roster_technicians', 'technician_leave', 'calendar_blocks', 'holiday_openings'];
    expect(
      nodes.filter((n) => n['Node Type'] === 'Seq Scan' && !SMALL.includes(String(n['Relation Name']))),
    ).toEqual([]);
    expect(nodes.filter((n) => n['Node Type'] === 'Sort')).toEqual([]);
    const reads = nodes.filter((n) => n['Relation Name']).map((n) => [n['Relation Name'], n['Index Name']]);
    expect(reads).toEqual(
      expect.arrayContaining([
        [
          'slot_reservations',
          expect.stringMatching(/^slot_reservations_(active_slot_key|live_slot_idx|date_idx)$/),
        ],
        ['bookings', 'bookings_pkey'],
        ['time_slots', 'time_slots_date_slot_key'],
      ]),
    );
    for (const [relation, index] of reads) if (!SMALL.includes(String(relation))) expect(index).toBeDefined();
  };

  it.each(['2031-02-20', '2030-06-02'])('%s, custom plan: index scans only', async (date) => {
    const { text, values } = await slotStatement(date);
    const [row] = (await pool.query(`EXPLAIN (FORMAT JSON) ${text}`, values)).rows as {
      'QUERY PLAN': { Plan: PlanNode }[];
    }[];
    expectIndexed(row!['QUERY PLAN'][0]!.Plan);
  });

  it('the generic plan of the prepared statement: index scans only', async () => {
    const { name, text } = await slotStatement('2031-02-20');
    const client = await pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      // $2: the date's ISO weekday (issue 19: the roster and recurring blocks).
      await client.query(`PREPARE ${name}(date, int) AS ${text}`);
      const [row] = (await client.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}('2031-02-20', 4)`)).rows as {
        'QUERY PLAN': { Plan: PlanNode }[];
      }[];
      expectIndexed(row!['QUERY PLAN'][0]!.Plan);
    } finally {
      await client.query(`DEALLOCATE ALL`);
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });

  it('reads the date’s live reservations and blocks, nothing else', async () => {
    const { text, values } = await slotStatement('2031-02-20');
    const { rows } = await pool.query<{ t: string; slot: string }>(text, values);
    const live = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = '2031-02-20' AND released_at IS NULL`,
    );
    const blocked = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM booking.time_slots WHERE date = '2031-02-20' AND NOT is_available`,
    );
    expect(rows.filter((r) => r.t === 'r')).toHaveLength(live.rows[0]!.n);
    expect(rows.filter((r) => r.t === 'b')).toHaveLength(blocked.rows[0]!.n);
    expect(live.rows[0]!.n).toBeGreaterThan(0);
  });
});
