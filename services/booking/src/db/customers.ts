import { randomUUID } from 'node:crypto';
import type { Sql } from './client';

export const emailKey = (email: string) => email.trim().toLowerCase();
export const phoneKey = (phone: string) => phone.replace(/\D/g, '');

/**
 * The customer and vehicle rows for a booking, and the next job number's sequence value, in one statement:
 *  - customer: the one with this email (case-insensitive; its name and phone become this booking's), else the most
 *    recent one with this phone number (its name is refreshed, its email kept), else a new one (race-safe on email);
 *    An erased customer (issue 18, privacy) is never matched: their email and phone were replaced anyway;
 *  - vehicle: that customer's vehicle with this registration (updated with the latest details), else a new one.
 */
export async function upsertCustomerAndVehicle(
  tx: Sql,
  c: { name: string; email: string; phone: string },
  v: { make: string; model: string; year: number; color: string | null; registration: string },
): Promise<{ customerId: string; vehicleId: string; jobSeq: number }> {
  const rows = await tx.$queryRawUnsafe<{ customer_id: string; vehicle_id: string; job_seq: number }[]>(
    `WITH by_email AS (
       UPDATE booking.customers SET name = $2, phone = $3, phone_key = $4, email = $5, updated_at = now()
        WHERE email_key = $1 AND erased_at IS NULL
       RETURNING id
     ), by_phone AS (
       UPDATE booking.customers SET name = $2, updated_at = now()
        WHERE NOT EXISTS (SELECT 1 FROM by_email)
          AND id = (SELECT id FROM booking.customers WHERE phone_key = $4 AND erased_at IS NULL ORDER BY updated_at DESC LIMIT 1)
       RETURNING id
     ), inserted AS (
       INSERT INTO booking.customers (id, name, email, email_key, phone, phone_key)
       SELECT $6::uuid, $2, $5, $1, $3, $4
        WHERE NOT EXISTS (SELECT 1 FROM by_email) AND NOT EXISTS (SELECT 1 FROM by_phone)
       ON CONFLICT (email_key) DO UPDATE
         SET name = EXCLUDED.name, phone = EXCLUDED.phone, phone_key = EXCLUDED.phone_key, updated_at = now()
       RETURNING id
     ), customer AS (
       SELECT id FROM by_email UNION ALL SELECT id FROM by_phone UNION ALL SELECT id FROM inserted
     ), vehicle AS (
       INSERT INTO booking.vehicles (id, customer_id, make, model, year, color, registration)
       SELECT $7::uuid, customer.id, $8, $9, $10::int, $11, $12 FROM customer
       ON CONFLICT (customer_id, registration) DO UPDATE
         SET make = EXCLUDED.make, model = EXCLUDED.model, year = EXCLUDED.year,
             color = COALESCE(EXCLUDED.color, booking.vehicles.color), updated_at = now()
       RETURNING id, customer_id
     )
     SELECT customer_id::text AS customer_id, id::text AS vehicle_id,
            nextval(pg_get_serial_sequence('booking.bookings', 'job_seq'))::int AS job_seq
       FROM vehicle`,
    emailKey(c.email),
    c.name,
    c.phone,
    phoneKey(c.phone),
    c.email,
    randomUUID(),
    randomUUID(),
    v.make,
    v.model,
    v.year,
    v.color,
    v.registration,
  );
  const row = rows[0];
  if (!row) throw new Error('customer/vehicle upsert returned no row');
  return { customerId: row.customer_id, vehicleId: row.vehicle_id, jobSeq: row.job_seq };
}
