import type { Db, Tx } from './client';
import type { Payment, Prisma } from './generated/client';

/** Card payment queries (payments, provider_events). What a provider event does is src/app/payments.ts's. */

export async function findPaymentByTokenHash(db: Db | Tx, hash: string): Promise<Payment | undefined> {
  return (await db.payment.findUnique({ where: { bookingTokenHash: hash } })) ?? undefined;
}

export async function findPaymentByIntent(db: Db | Tx, intentId: string): Promise<Payment | undefined> {
  return (await db.payment.findUnique({ where: { providerIntentId: intentId } })) ?? undefined;
}

export async function findPayment(db: Db | Tx, id: string): Promise<Payment | undefined> {
  return (await db.payment.findUnique({ where: { id } })) ?? undefined;
}

export function insertPayment(db: Db, data: Prisma.PaymentUncheckedCreateInput): Promise<Payment> {
  return db.payment.create({ data });
}

export function updatePayment(db: Db | Tx, id: string, data: Prisma.PaymentUpdateInput): Promise<Payment> {
  return db.payment.update({ where: { id }, data });
}

/** Records a provider event id; false when it was recorded before (a replay). */
export async function recordProviderEvent(
  tx: Tx,
  event: { id: string; type: string; intentId: string | null },
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO "billing"."provider_events" ("id", "type", "provider_intent_id")
    VALUES (${event.id}, ${event.type}, ${event.intentId}) ON CONFLICT ("id") DO NOTHING`;
  return Number(inserted) === 1;
}

/** Locks the payment of an intent for the rest of the transaction. */
export async function lockPaymentByIntent(tx: Tx, intentId: string): Promise<Payment | undefined> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."payments" WHERE "provider_intent_id" = ${intentId} FOR UPDATE`;
  const id = rows[0]?.id;
  return id ? findPayment(tx, id) : undefined;
}

/**
 * Locks the card payments of a booking (by its PaymentIntent, or already linked to its job), ids in a fixed order.
 * BookingCreated takes these locks before touching the job, like the payment confirmation does, so the two never
 * wait on each other crosswise.
 */
export async function lockPaymentsOfBooking(
  tx: Tx,
  booking: { jobId: string; stripePaymentIntentId?: string | null },
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."payments"
    WHERE "job_id" = ${booking.jobId}::uuid OR "provider_intent_id" = ${booking.stripePaymentIntentId ?? null}
    ORDER BY "id" FOR UPDATE`;
  return rows.map((r) => r.id);
}

/** Links a payment made before its booking existed (prepaid checkout) to the job. */
export async function linkPaymentToJob(tx: Tx, intentId: string, jobId: string): Promise<void> {
  await tx.payment.updateMany({ where: { providerIntentId: intentId, jobId: null }, data: { jobId } });
}
