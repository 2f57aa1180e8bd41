import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@tyres/testkit';

jest.setTimeout(60_000);

const MIGRATIONS = path.resolve(__dirname, '../../prisma/migrations');
const MIGRATION = 'invoice_amount_type_gst_free';

/**
 * Issue 12, "existing data is migrated; nothing is rewritten silently": the migration runs over a billing schema
 * holding data made before it (the earlier migrations' SQL, then rows as the old code wrote them).
 */
describe(`migration ${MIGRATION}`, () => {
  let db: TestDatabase;
  let client: Client;
  const sql = (text: string, values: unknown[] = []) => client.query(text, values);
  const migrationSql = (name: string) => readFileSync(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8');

  beforeAll(async () => {
    db = await createTestDatabase('billing-migration');
    client = new Client({ connectionString: db.url });
    await client.connect();
    await sql('CREATE SCHEMA "billing"');
    await sql('SET search_path TO "billing"');
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('keeps every existing invoice as tax exclusive with its amounts; new invoices default to tax inclusive', async () => {
    const folders = readdirSync(MIGRATIONS)
      .filter((name) => /^\d{14}_/.test(name))
      .sort();
    const target = folders.findIndex((name) => name.endsWith(`_${MIGRATION}`));
    expect(target).toBeGreaterThan(0);
    for (const name of folders.slice(0, target)) await sql(migrationSql(name));

    // Rows as billing wrote them before: GST added on top (805.80 + 80.58), one active invoice per job.
    const job = '11111111-1111-4111-8111-111111111111';
    await sql(
      `INSERT INTO "job_snapshots" ("job_id", "job_number", "service_type", "scheduled_date", "time_slot", "address",
         "suburb", "postcode", "customer_value", "payment_method", "payment_status", "customer_name", "customer_email",
         "customer_phone", "vehicle_make", "vehicle_model", "vehicle_year", "vehicle_registration", "booked_at", "updated_at")
       VALUES ($1, 'JOB-1', 'new-tyres', '2026-11-20', '8-10 AM', '1 Hay St', 'Perth', '6000', 805.80, 'onsite',
         'pending', 'Jane', 'j@example.com', '0400000000', 'Toyota', 'Hilux', 2020, 'ABC1', now(), now())`,
      [job],
    );
    await sql(
      `INSERT INTO "customer_invoices" ("id", "job_id", "invoice_number", "invoice_date", "subtotal_amount",
         "gst_amount", "total_amount", "status", "updated_at")
       VALUES ('22222222-2222-4222-8222-222222222222', $1, 'INV-000001', '2026-11-20', 805.80, 80.58, 886.38, 'sent', now())`,
      [job],
    );
    await sql(
      `INSERT INTO "customer_invoice_items" ("id", "customer_invoice_id", "description", "category", "quantity",
         "unit_price", "total_price", "updated_at")
       VALUES ('33333333-3333-4333-8333-333333333333', '22222222-2222-4222-8222-222222222222', 'Tyres', 'tyre', 4, 201.45, 805.80, now())`,
    );
    await sql(
      `INSERT INTO "purchase_invoices" ("id", "job_id", "supplier_name", "invoice_number", "invoice_date",
         "total_amount", "gst_amount", "subtotal", "updated_at")
       VALUES ('44444444-4444-4444-8444-444444444444', $1, 'Tyre Wholesale', 'TW-1', '2026-11-20', 110.00, 10.00, 100.00, now())`,
      [job],
    );
    await sql(
      `INSERT INTO "business_expenses" ("id", "expense_date", "supplier_name", "description", "amount", "gst_amount",
         "category", "updated_at")
       VALUES ('55555555-5555-4555-8555-555555555555', '2026-11-20', 'BP', 'Fuel', 88.00, 8.00, 'fuel', now())`,
    );

    await sql(migrationSql(folders[target] as string));

    const invoice = await sql(
      `SELECT "amount_type", "payment_intent_id", "subtotal_amount"::text, "gst_amount"::text, "total_amount"::text
       FROM "customer_invoices" WHERE "invoice_number" = 'INV-000001'`,
    );
    expect(invoice.rows).toEqual([
      {
        amount_type: 'exclusive',
        payment_intent_id: null,
        subtotal_amount: '805.80',
        gst_amount: '80.58',
        total_amount: '886.38',
      },
    ]);
    expect((await sql(`SELECT "gst_free", "total_price"::text FROM "customer_invoice_items"`)).rows).toEqual([
      { gst_free: false, total_price: '805.80' },
    ]);
    expect((await sql(`SELECT "gst_free", "gst_amount"::text FROM "purchase_invoices"`)).rows).toEqual([
      { gst_free: false, gst_amount: '10.00' },
    ]);
    expect((await sql(`SELECT "gst_free", "gst_amount"::text FROM "business_expenses"`)).rows).toEqual([
      { gst_free: false, gst_amount: '8.00' },
    ]);

    // A new invoice is tax inclusive unless said otherwise; and a job may now have a second active invoice.
    const inserted = await sql(
      `INSERT INTO "customer_invoices" ("id", "job_id", "invoice_number", "invoice_date", "updated_at")
       VALUES ('66666666-6666-4666-8666-666666666666', $1, 'INV-000002', '2026-11-21', now()) RETURNING "amount_type"`,
      [job],
    );
    expect(inserted.rows).toEqual([{ amount_type: 'inclusive' }]);
    // The vocabularies: only the two amount types, and the surcharge line category.
    await expect(
      sql(`UPDATE "customer_invoices" SET "amount_type" = 'gross' WHERE "invoice_number" = 'INV-000002'`),
    ).rejects.toThrow(/customer_invoices_amount_type_check/);
    await sql(
      `INSERT INTO "customer_invoice_items" ("id", "customer_invoice_id", "description", "category", "unit_price",
         "total_price", "updated_at")
       VALUES ('77777777-7777-4777-8777-777777777777', '66666666-6666-4666-8666-666666666666', 'Card surcharge 1.7%', 'surcharge', 2.21, 2.21, now())`,
    );
    await expect(
      sql(`UPDATE "customer_invoice_items" SET "category" = 'tip' WHERE "category" = 'surcharge'`),
    ).rejects.toThrow(/customer_invoice_items_category_check/);
    // One invoice per card payment.
    await sql(
      `UPDATE "customer_invoices" SET "payment_intent_id" = 'pi_1' WHERE "invoice_number" = 'INV-000002'`,
    );
    await expect(
      sql(
        `UPDATE "customer_invoices" SET "payment_intent_id" = 'pi_1' WHERE "invoice_number" = 'INV-000001'`,
      ),
    ).rejects.toThrow(/customer_invoices_payment_intent_id_key/);
  });
});
