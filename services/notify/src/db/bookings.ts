import { dateFromDb, dateToDb, type TimeSlot } from '@tyres/kernel';
import type { Db } from './client';
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

export class BookingRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a booking unless it is already known; returns the row as it is now. A redelivered BookingCreated never
   * overwrites a slot a later reschedule has moved.
   */
  async recordIfAbsent(input: NewBookingRecord): Promise<BookingRecord> {
    // The usual case, a new booking, is one statement: the insert returns the row (as the erasure trigger left it).
    const inserted = await this.db.bookingRecord.createManyAndReturn({
      data: [{ ...input, scheduledDate: dateToDb(input.scheduledDate) }],
      skipDuplicates: true,
    });
    if (inserted[0]) return fromRow(inserted[0]);
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
    const row = await this.db.bookingRecord.findUnique({ where: { jobId } });
    return row ? fromRow(row) : null;
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

  /** The job's technician (null: unassigned); unknown bookings are left alone. */
  async assign(jobId: string, technicianId: string | null): Promise<void> {
    await this.db.bookingRecord.updateMany({
      where: { jobId },
      data: { assignedTechnicianId: technicianId },
    });
  }
}
