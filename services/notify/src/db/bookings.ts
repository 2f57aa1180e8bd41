import { dateFromDb, dateToDb, type TimeSlot } from '@tyres/kernel';
import type pg from 'pg';
import { poolOf, type Db } from './client';
import type { BookingRecord as Row } from './generated/client';

/** notify's record of a booking: who to tell and the slot that is current (queries only). */
export interface BookingRecord {
  jobId: string;
  jobNumber: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  serviceType: string;
  address: string;
  suburb: string;
  scheduledDate: string;
  timeSlot: TimeSlot;
  assignedTechnicianId: string | null;
  cancelledAt: Date | null;
}

export type NewBookingRecord = Omit<BookingRecord, 'cancelledAt' | 'assignedTechnicianId'>;

const fromRow = (r: Row): BookingRecord => ({
  jobId: r.jobId,
  jobNumber: r.jobNumber,
  customerName: r.customerName,
  customerEmail: r.customerEmail,
  customerPhone: r.customerPhone,
  serviceType: r.serviceType,
  address: r.address,
  suburb: r.suburb,
  assignedTechnicianId: r.assignedTechnicianId,
  scheduledDate: dateFromDb(r.scheduledDate),
  timeSlot: r.timeSlot as TimeSlot,
  cancelledAt: r.cancelledAt,
});

/** The contact fields of a booking cancelled before notify heard of it (cancel below). */
const PLACEHOLDER = '';

/** booking_records as the pg driver returns them (the date as its text: no time zone in between). */
interface PgRow {
  job_id: string;
  job_number: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  service_type: string;
  address: string;
  suburb: string;
  assigned_technician_id: string | null;
  scheduled_date: string;
  time_slot: string;
  cancelled_at: Date | null;
}

const COLUMNS = `"job_id", "job_number", "customer_name", "customer_email", "customer_phone", "service_type", "address",
  "suburb", "assigned_technician_id", "scheduled_date"::text AS "scheduled_date", "time_slot", "cancelled_at"`;

const fromPgRow = (r: PgRow): BookingRecord => ({
  jobId: r.job_id,
  jobNumber: r.job_number,
  customerName: r.customer_name,
  customerEmail: r.customer_email,
  customerPhone: r.customer_phone,
  serviceType: r.service_type,
  address: r.address,
  suburb: r.suburb,
  assignedTechnicianId: r.assigned_technician_id,
  scheduledDate: r.scheduled_date,
  timeSlot: r.time_slot as TimeSlot,
  cancelledAt: r.cancelled_at,
});

/**
 * The statements every booking makes (the record, its technician, the live feed's audience) run on the pg driver
 * under `db`; the rare ones (cancellation placeholders, moves) on Prisma.
 */
export class BookingRepository {
  private readonly pool: Pick<pg.Pool, 'query'>;

  constructor(
    private readonly db: Db,
    pool?: Pick<pg.Pool, 'query'>,
  ) {
    this.pool = pool ?? poolOf(db);
  }

  /**
   * Records a booking unless it is already known; returns the row as it is now. A redelivered BookingCreated never
   * overwrites a slot a later reschedule has moved.
   */
  async recordIfAbsent(input: NewBookingRecord): Promise<BookingRecord> {
    // The usual case, a new booking, is one statement: the insert returns the row (as the erasure trigger left it).
    const inserted = await this.pool.query<PgRow>(
      `INSERT INTO "notify"."booking_records" ("job_id", "job_number", "customer_name", "customer_email",
         "customer_phone", "service_type", "address", "suburb", "scheduled_date", "time_slot", "updated_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::date, $10, $11)
       ON CONFLICT ("job_id") DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        input.jobId,
        input.jobNumber,
        input.customerName,
        input.customerEmail,
        input.customerPhone,
        input.serviceType,
        input.address,
        input.suburb,
        input.scheduledDate,
        input.timeSlot,
        new Date(),
      ],
    );
    if (inserted.rows[0]) return fromPgRow(inserted.rows[0]);
    // A cancellation that arrived first left a placeholder (cancel below): it gets the contact details now and
    // stays cancelled, so no reminder is planned for a booking already cancelled.
    await this.db.bookingRecord.updateMany({
      where: { jobId: input.jobId, customerEmail: PLACEHOLDER },
      data: {
        jobNumber: input.jobNumber,
        customerName: input.customerName,
        customerEmail: input.customerEmail,
        customerPhone: input.customerPhone,
        serviceType: input.serviceType,
        address: input.address,
        suburb: input.suburb,
      },
    });
    return fromRow(await this.db.bookingRecord.findUniqueOrThrow({ where: { jobId: input.jobId } }));
  }

  async get(jobId: string): Promise<BookingRecord | null> {
    const { rows } = await this.pool.query<PgRow>(
      `SELECT ${COLUMNS} FROM "notify"."booking_records" WHERE "job_id" = $1`,
      [jobId],
    );
    return rows[0] ? fromPgRow(rows[0]) : null;
  }

  /** The booking's new current slot; null when notify never heard of the booking. */
  async moveTo(
    jobId: string,
    slot: { scheduledDate: string; timeSlot: TimeSlot },
  ): Promise<BookingRecord | null> {
    const { count } = await this.db.bookingRecord.updateMany({
      where: { jobId },
      data: { scheduledDate: dateToDb(slot.scheduledDate), timeSlot: slot.timeSlot },
    });
    return count === 0 ? null : this.get(jobId);
  }

  /** Marks the booking cancelled (first cancellation wins); null when unknown. */
  async cancel(
    jobId: string,
    at: Date,
    known?: { jobNumber: string; scheduledDate: string; timeSlot: TimeSlot },
  ): Promise<BookingRecord | null> {
    await this.db.bookingRecord.updateMany({
      where: { jobId, cancelledAt: null },
      data: { cancelledAt: at },
    });
    const record = await this.get(jobId);
    if (record || !known) return record && record.customerEmail !== PLACEHOLDER ? record : null;
    // Cancelled before notify saw BookingCreated (redelivery, two replicas, a backlog): a cancelled placeholder
    // without contact details, so the late BookingCreated plans no reminder for it. null: nobody to tell yet.
    await this.db.bookingRecord.createMany({
      data: [
        {
          jobId,
          jobNumber: known.jobNumber,
          customerName: PLACEHOLDER,
          customerEmail: PLACEHOLDER,
          customerPhone: PLACEHOLDER,
          serviceType: PLACEHOLDER,
          address: PLACEHOLDER,
          suburb: PLACEHOLDER,
          scheduledDate: dateToDb(known.scheduledDate),
          timeSlot: known.timeSlot,
          cancelledAt: at,
        },
      ],
      skipDuplicates: true,
    });
    return null;
  }

  /** The customer corrected their mobile number (BookingUpdated): later messages go to the new one. */
  async updatePhone(jobId: string, phone: string): Promise<void> {
    await this.db.bookingRecord.updateMany({ where: { jobId }, data: { customerPhone: phone } });
  }

  /**
   * An admin edited the job (JobUpdated): the address later messages print, when `version` is newer than the last
   * edit applied (an older version delivered late, or a redelivery, changes nothing). The erasure trigger blanks the
   * address again on an erased booking. false when notify never heard of the booking or the version is not newer.
   */
  async applyJobEdit(
    jobId: string,
    edit: { version: number; address: string; suburb: string },
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE "notify"."booking_records" SET "address" = $2, "suburb" = $3, "job_edit_version" = $4, "updated_at" = $5
        WHERE "job_id" = $1 AND "job_edit_version" < $4`,
      [jobId, edit.address, edit.suburb, edit.version, new Date()],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The job's technician (null: unassigned); unknown bookings are left alone. */
  async assign(jobId: string, technicianId: string | null): Promise<void> {
    await this.pool.query(
      'UPDATE "notify"."booking_records" SET "assigned_technician_id" = $2, "updated_at" = $3 WHERE "job_id" = $1',
      [jobId, technicianId, new Date()],
    );
  }
}
