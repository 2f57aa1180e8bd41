import fs from 'node:fs';
import path from 'node:path';
import { DASHBOARD_FIELDS, DETAIL_FIELDS, documentFunctionSql, jobJson } from './job-json';

describe('job JSON built by Postgres', () => {
  it('has exactly the spec\'s "Job (dashboard)" fields', () => {
    expect(DASHBOARD_FIELDS.map(([k]) => k)).toEqual([
      'id',
      'jobNumber',
      'status',
      'serviceType',
      'tyreSize',
      'tyreQuantity',
      'address',
      'suburb',
      'postcode',
      'scheduledDate',
      'timeSlot',
      'customerValue',
      'assignedTechnicianId',
      'createdAt',
      'inProgressAt',
      'completedAt',
      'invoicedAt',
      'paidAt',
      'customer',
      'vehicle',
      'photos',
    ]);
  });

  it('adds the detail fields without repeating any', () => {
    const keys = DETAIL_FIELDS.map(([k]) => k);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      expect.arrayContaining(['scheduleStatus', 'assignedTechnician', 'paymentStatus', 'hasCustomerInvoice']),
    );
  });

  it('derives the schedule status SQL from the domain mapping', () => {
    const sql = jobJson('details');
    expect(sql).toContain(
      `WHEN 'new' THEN CASE WHEN j."assigned_technician_id" IS NULL THEN 'pending' ELSE 'confirmed' END`,
    );
    expect(sql).toContain(`WHEN 'in-progress' THEN 'in_progress'`);
    expect(sql).toContain(`WHEN 'invoiced' THEN 'completed'`);
    expect(sql).toContain(`WHEN 'cancelled' THEN 'cancelled'`);
    // json_build_object takes at most 100 arguments.
    expect(DETAIL_FIELDS.length * 2).toBeLessThanOrEqual(100);
  });

  it('writes money as text and instants like Date#toISOString', () => {
    const fields = Object.fromEntries(DETAIL_FIELDS);
    expect(fields.customerValue).toBe('j."customer_value"::text');
    expect(fields.createdAt).toBe(
      `to_char(j."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    );
  });
});

describe('the list documents migration', () => {
  it('holds exactly the trigger function generated from these shapes', () => {
    const dir = path.join(__dirname, '../../prisma/migrations');
    const migrations = fs.readdirSync(dir).filter((d) => d.endsWith('_list_documents'));
    expect(migrations).toHaveLength(1);
    const sql = fs.readFileSync(path.join(dir, migrations[0] as string, 'migration.sql'), 'utf8');
    expect(sql).toContain(documentFunctionSql());
  });
});
