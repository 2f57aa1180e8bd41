import {
  causedBy,
  NonRetryableError,
  type BookingCreated,
  type BookingPhotoAdded,
  type CustomerInvoiceDeleted,
  type CustomerInvoiceIssued,
  type CustomerInvoiceUpdated,
  type EventOf,
  type Outbox,
  type PaymentSucceeded,
  type PurchaseInvoiceDeleted,
  type PurchaseInvoiceRecorded,
  type PurchaseInvoiceUpdated,
  type UserCreated,
  type UserStatusChanged,
} from '@tyres/events';
import type { Tx } from '../db/client';
import { JobsRepository } from '../db/jobs-repository';
import type { StaffRepository } from '../db/staff-repository';
import type { JobRow } from '../domain/job-view';
import type { JobStatus } from '../domain/status';
import { toDbDate, weekdayOf } from '../domain/time';
import { jobStatusChanged, SOURCE } from './job-events';

/**
 * Event handlers. Each runs inside the inbox transaction (src/service.ts wraps them with `inbox.handler`), so the
 * effect, the inbox row and any events emitted commit together: a redelivered event changes nothing (the wrapper
 * wakes the outbox relay after the commit).
 * They never assume an order between producers: a photo, payment or invoice that arrives before its
 * BookingCreated is stored by job id and shows up once the job exists.
 */
export interface HandlerDeps {
  jobs: JobsRepository;
  staff: StaffRepository;
  outbox: Outbox;
}

type Handler<E> = (tx: Tx, event: E) => Promise<void>;

export interface JobHandlers {
  onBookingCreated: Handler<EventOf<typeof BookingCreated>>;
  onBookingPhotoAdded: Handler<EventOf<typeof BookingPhotoAdded>>;
  onPaymentSucceeded: Handler<EventOf<typeof PaymentSucceeded>>;
  onCustomerInvoiceIssued: Handler<EventOf<typeof CustomerInvoiceIssued>>;
  onCustomerInvoiceUpdated: Handler<EventOf<typeof CustomerInvoiceUpdated>>;
  onCustomerInvoiceDeleted: Handler<EventOf<typeof CustomerInvoiceDeleted>>;
  onPurchaseInvoiceRecorded: Handler<EventOf<typeof PurchaseInvoiceRecorded>>;
  onPurchaseInvoiceUpdated: Handler<EventOf<typeof PurchaseInvoiceUpdated>>;
  onPurchaseInvoiceDeleted: Handler<EventOf<typeof PurchaseInvoiceDeleted>>;
  onUserCreated: Handler<EventOf<typeof UserCreated>>;
  onUserStatusChanged: Handler<EventOf<typeof UserStatusChanged>>;
}

export function jobHandlers(deps: HandlerDeps): JobHandlers {
  const { jobs, staff, outbox } = deps;

  /**
   * Serialises the handlers that touch one job id, even before the job row exists: a payment or purchase invoice
   * handled at the same moment as its BookingCreated must not miss it (READ COMMITTED would let both miss the other).
   */
  async function lockJobId(tx: Tx, jobId: string): Promise<void> {
    await tx.$executeRawUnsafe(`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended($1, 4242))`, jobId);
  }

  /** Moves a job to `to` (setting its timestamp) and writes JobStatusChanged; no HTTP caller, so changedBy is null. */
  async function transition(
    tx: Tx,
    job: JobRow,
    to: JobStatus,
    at: Date,
    parent: { id: string; correlationId: string },
    extra: Record<string, unknown> = {},
  ): Promise<JobRow> {
    const field = { invoiced: 'invoiced_at', paid: 'paid_at' }[to as 'invoiced' | 'paid'];
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs" SET "status" = $2, "${field}" = $3::timestamptz, "updated_at" = now()
         ${extra.paymentStatus ? `, "payment_status" = 'paid'` : ''}
       WHERE "id" = $1::uuid`,
      job.id,
      to,
      at.toISOString(),
    );
    const after = (await jobs.lockAny(tx, job.id)) as JobRow;
    await outbox.enqueue(tx, jobStatusChanged(after, job.status, null, at, causedBy(parent, SOURCE)));
    return after;
  }

  async function upsertCustomerInvoice(
    tx: Tx,
    data: { invoiceId: string; jobId: string; invoiceNumber: string; status: string; updatedAt: string },
  ): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."job_customer_invoices" ("invoice_id", "job_id", "invoice_number", "status", "source_updated_at")
       VALUES ($1::uuid, $2::uuid, $3, $4, $5::timestamptz)
       ON CONFLICT ("invoice_id") DO UPDATE SET
         "job_id" = EXCLUDED."job_id", "invoice_number" = EXCLUDED."invoice_number",
         "status" = EXCLUDED."status", "source_updated_at" = EXCLUDED."source_updated_at"
       WHERE "job_customer_invoices"."deleted_at" IS NULL
         AND "job_customer_invoices"."source_updated_at" <= EXCLUDED."source_updated_at"`,
      data.invoiceId,
      data.jobId,
      data.invoiceNumber,
      data.status,
      data.updatedAt,
    );
  }

  async function invoiceIsLive(tx: Tx, invoiceId: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "jobs"."job_customer_invoices" WHERE "invoice_id" = $1::uuid AND "deleted_at" IS NULL`,
      invoiceId,
    );
    return rows.length > 0;
  }

  /** jobs.purchase_cost = sum of the job's live purchase invoices; purchase_invoice = the latest number. */
  async function recomputePurchaseCost(tx: Tx, jobId: string | null | undefined): Promise<void> {
    if (!jobId) return;
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs" j
       SET "purchase_cost" = s."total", "purchase_invoice" = s."latest", "updated_at" = now()
       FROM (SELECT sum("total_amount") AS "total",
                    (array_agg("invoice_number" ORDER BY "source_updated_at" DESC))[1] AS "latest"
             FROM "jobs"."job_purchase_invoices" WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL) s
       WHERE j."id" = $1::uuid`,
      jobId,
    );
  }

  async function onPurchaseSnapshot(
    tx: Tx,
    data: {
      purchaseInvoiceId: string;
      jobId: string | null;
      invoiceNumber: string;
      totalAmount: string;
      updatedAt: string;
    },
  ): Promise<void> {
    // Lock the job rows first: two invoices of one job handled at once must not each sum without the other.
    const previous = await tx.$queryRawUnsafe<{ jobId: string | null }[]>(
      `SELECT "job_id" AS "jobId" FROM "jobs"."job_purchase_invoices" WHERE "purchase_invoice_id" = $1::uuid`,
      data.purchaseInvoiceId,
    );
    const affected = [...new Set([data.jobId, previous[0]?.jobId].filter((v): v is string => !!v))].sort();
    for (const jobId of affected) await lockJobId(tx, jobId);
    const applied = await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."job_purchase_invoices" ("purchase_invoice_id", "job_id", "invoice_number", "total_amount", "source_updated_at")
       VALUES ($1::uuid, $2::uuid, $3, $4::numeric, $5::timestamptz)
       ON CONFLICT ("purchase_invoice_id") DO UPDATE SET
         "job_id" = EXCLUDED."job_id", "invoice_number" = EXCLUDED."invoice_number",
         "total_amount" = EXCLUDED."total_amount", "source_updated_at" = EXCLUDED."source_updated_at"
       WHERE "job_purchase_invoices"."deleted_at" IS NULL
         AND "job_purchase_invoices"."source_updated_at" <= EXCLUDED."source_updated_at"`,
      data.purchaseInvoiceId,
      data.jobId,
      data.invoiceNumber,
      data.totalAmount,
      data.updatedAt,
    );
    if (Number(applied) === 0) return;
    for (const jobId of affected) await recomputePurchaseCost(tx, jobId);
  }

  return {
    async onBookingCreated(tx, event) {
      const d = event.data;
      await lockJobId(tx, d.jobId);
      const created = await tx.job.createMany({
        skipDuplicates: true,
        data: [
          {
            id: d.jobId,
            jobNumber: d.jobNumber,
            customerId: d.customerId,
            vehicleId: d.vehicleId,
            customerName: d.customer.name,
            customerEmail: d.customer.email,
            customerPhone: d.customer.phone,
            vehicleMake: d.vehicle.make,
            vehicleModel: d.vehicle.model,
            vehicleYear: d.vehicle.year,
            vehicleColor: d.vehicle.color ?? null,
            vehicleRegistration: d.vehicle.registration,
            serviceType: d.serviceType,
            status: 'new',
            scheduledDate: toDbDate(d.scheduledDate),
            scheduledDay: weekdayOf(d.scheduledDate),
            timeSlot: d.timeSlot,
            address: d.address,
            suburb: d.suburb,
            postcode: d.postcode,
            tyreSize: d.tyreSize,
            tyreQuantity: d.tyreQuantity,
            tyreBrand: d.tyreBrand,
            notes: d.notes,
            customerValue: d.customerValue,
            paymentMethod: d.paymentMethod,
            paymentStatus: d.paymentStatus,
            stripePaymentIntentId: d.stripePaymentIntentId ?? null,
            channel: d.channel,
            createdAt: new Date(d.createdAt),
          },
        ],
      });
      if (created.count === 0) {
        const existing = await tx.job.findUnique({ where: { id: d.jobId }, select: { id: true } });
        // Same job again (booking re-sent it under a new event id): already adopted, nothing to do.
        if (existing) return;
        // Another job holds this number: retrying cannot help; the dead-letter queue makes it visible.
        throw new NonRetryableError(`Job number ${d.jobNumber} is already used by another job`);
      }
      // Purchase invoices and payments that arrived before the booking event.
      const early = await tx.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM "jobs"."job_purchase_invoices" WHERE "job_id" = $1::uuid LIMIT 1`,
        d.jobId,
      );
      if (early.length > 0) await recomputePurchaseCost(tx, d.jobId);
      const payment = await tx.jobPayment.findFirst({
        where: { jobId: d.jobId },
        orderBy: { succeededAt: 'asc' },
      });
      if (payment && d.paymentStatus !== 'paid') {
        await tx.job.update({
          where: { id: d.jobId },
          data: {
            paymentStatus: 'paid',
            stripePaymentIntentId: d.stripePaymentIntentId ?? payment.paymentIntentId,
          },
        });
      }
    },

    async onBookingPhotoAdded(tx, event) {
      const d = event.data;
      await tx.jobPhoto.createMany({
        skipDuplicates: true,
        data: [
          {
            id: d.photoId,
            jobId: d.jobId,
            type: d.type,
            filename: d.filename,
            originalName: d.originalName,
            mimeType: d.mimeType,
            size: d.size,
            uploadedAt: new Date(d.uploadedAt),
          },
        ],
      });
    },

    async onPaymentSucceeded(tx, event) {
      const d = event.data;
      if (!d.jobId) return; // a prepaid quote: booking creates the job (BookingCreated, paymentStatus paid)
      await lockJobId(tx, d.jobId);
      await tx.jobPayment.createMany({
        skipDuplicates: true,
        data: [
          {
            paymentId: d.paymentId,
            jobId: d.jobId,
            paymentIntentId: d.paymentIntentId,
            amount: d.amount,
            succeededAt: new Date(d.succeededAt),
          },
        ],
      });
      await tx.$executeRawUnsafe(
        `UPDATE "jobs"."jobs"
         SET "payment_status" = 'paid', "stripe_payment_intent_id" = COALESCE("stripe_payment_intent_id", $2), "updated_at" = now()
         WHERE "id" = $1::uuid AND "payment_status" <> 'paid'`,
        d.jobId,
        d.paymentIntentId,
      );
    },

    async onCustomerInvoiceIssued(tx, event) {
      const d = event.data;
      await upsertCustomerInvoice(tx, d);
      const job = await jobs.lockAny(tx, d.jobId);
      // Only a completed job moves on; an invoiced or paid job stays, and an unfinished one is not invoiced yet.
      if (!job || job.deletedAt || job.status !== 'completed') return;
      await transition(tx, job, 'invoiced', new Date(d.issuedAt), event);
    },

    async onCustomerInvoiceUpdated(tx, event) {
      const d = event.data;
      await upsertCustomerInvoice(tx, d);
      if (d.status !== 'paid' || !(await invoiceIsLive(tx, d.invoiceId))) return;
      let job = await jobs.lockAny(tx, d.jobId);
      if (!job || job.deletedAt) return;
      // The invoice is paid: a completed job (its Issued event not seen yet) is invoiced first, then paid.
      if (job.status === 'completed')
        job = await transition(tx, job, 'invoiced', new Date(d.updatedAt), event);
      if (job.status === 'invoiced')
        await transition(tx, job, 'paid', new Date(d.paidAt ?? d.updatedAt), event, {
          paymentStatus: 'paid',
        });
    },

    async onCustomerInvoiceDeleted(tx, event) {
      const d = event.data;
      // A tombstone: the job may be deleted again, and a late Updated cannot bring the invoice back.
      await tx.$executeRawUnsafe(
        `INSERT INTO "jobs"."job_customer_invoices"
           ("invoice_id", "job_id", "invoice_number", "status", "source_updated_at", "deleted_at")
         VALUES ($1::uuid, $2::uuid, $3, 'deleted', $4::timestamptz, $4::timestamptz)
         ON CONFLICT ("invoice_id") DO UPDATE SET "deleted_at" = EXCLUDED."deleted_at"`,
        d.invoiceId,
        d.jobId,
        d.invoiceNumber,
        d.deletedAt,
      );
    },

    onPurchaseInvoiceRecorded: (tx, event) => onPurchaseSnapshot(tx, event.data),
    onPurchaseInvoiceUpdated: (tx, event) => onPurchaseSnapshot(tx, event.data),

    async onPurchaseInvoiceDeleted(tx, event) {
      const d = event.data;
      if (d.jobId) await lockJobId(tx, d.jobId);
      const rows = await tx.$queryRawUnsafe<{ jobId: string | null }[]>(
        `INSERT INTO "jobs"."job_purchase_invoices"
           ("purchase_invoice_id", "job_id", "invoice_number", "total_amount", "source_updated_at", "deleted_at")
         VALUES ($1::uuid, $2::uuid, $3, 0, $4::timestamptz, $4::timestamptz)
         ON CONFLICT ("purchase_invoice_id") DO UPDATE SET "deleted_at" = EXCLUDED."deleted_at"
         RETURNING "job_id" AS "jobId"`,
        d.purchaseInvoiceId,
        d.jobId,
        d.invoiceNumber,
        d.deletedAt,
      );
      await recomputePurchaseCost(tx, rows[0]?.jobId ?? d.jobId);
    },

    async onUserCreated(tx, event) {
      const d = event.data;
      await staff.apply(tx, {
        userId: d.userId,
        username: d.username,
        email: d.email,
        role: d.role,
        isActive: d.isActive,
        at: new Date(d.createdAt),
      });
    },

    async onUserStatusChanged(tx, event) {
      const d = event.data;
      await staff.apply(tx, {
        userId: d.userId,
        username: d.username,
        role: d.role,
        isActive: d.isActive,
        at: new Date(d.changedAt),
      });
    },
  };
}
