import {
  createEvent,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  SmsRequested,
  type EventEnvelope,
  type EventMeta,
  type PaymentMethod,
  type PaymentStatus,
  type ServiceType,
  type TimeSlot,
} from '@tyres/events';
import type { JobRow } from '../domain/job-view';
import type { EnRouteMessage } from '../domain/sms';
import { stableUuid } from '../domain/sms';
import type { JobStatus } from '../domain/status';

/**
 * Builders for the events the jobs service emits. Each takes the job row as it is after the change, so the payload
 * always carries the facts consumers keep (technician, customer, service, amounts): billing scopes invoices per
 * technician and drafts them from these, reporting keeps job revenue facts.
 */
export const SOURCE = 'jobs';

const customerOf = (job: JobRow) => ({
  name: job.customerName,
  email: job.customerEmail,
  phone: job.customerPhone,
});
const slotOf = (job: JobRow) => ({ scheduledDate: job.scheduledDate, timeSlot: job.timeSlot as TimeSlot });

export function jobStatusChanged(
  job: JobRow,
  from: JobStatus,
  changedBy: string | null,
  changedAt: Date,
  meta: EventMeta,
): EventEnvelope {
  return createEvent(
    JobStatusChanged,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      from,
      to: job.status,
      changedAt: changedAt.toISOString(),
      changedBy,
      assignedTechnicianId: job.assignedTechnicianId,
      serviceType: job.serviceType as ServiceType,
      ...slotOf(job),
      customerValue: job.customerValue,
      customer: customerOf(job),
      suburb: job.suburb,
      paymentStatus: job.paymentStatus as PaymentStatus,
      purchaseCost: job.purchaseCost,
    },
    meta,
  );
}

export function jobCompleted(job: JobRow, meta: EventMeta): EventEnvelope {
  return createEvent(
    JobCompleted,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      serviceType: job.serviceType as ServiceType,
      ...slotOf(job),
      suburb: job.suburb,
      customerValue: job.customerValue,
      purchaseCost: job.purchaseCost,
      assignedTechnicianId: job.assignedTechnicianId,
      customer: customerOf(job),
      completedAt: (job.completedAt ?? new Date()).toISOString(),
      address: job.address,
      postcode: job.postcode,
      tyreSize: job.tyreSize,
      tyreQuantity: job.tyreQuantity,
      vehicle: {
        make: job.vehicleMake,
        model: job.vehicleModel,
        year: job.vehicleYear,
        color: job.vehicleColor,
        registration: job.vehicleRegistration,
      },
      paymentMethod: job.paymentMethod as PaymentMethod,
      paymentStatus: job.paymentStatus as PaymentStatus,
    },
    meta,
  );
}

export function jobAssigned(
  job: JobRow,
  previousTechnicianId: string | null,
  assignedBy: string | null,
  at: Date,
  meta: EventMeta,
): EventEnvelope {
  return createEvent(
    JobAssigned,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      technicianId: job.assignedTechnicianId,
      previousTechnicianId,
      ...slotOf(job),
      assignedBy,
      assignedAt: at.toISOString(),
      status: job.status,
      serviceType: job.serviceType as ServiceType,
      suburb: job.suburb,
      customerValue: job.customerValue,
      customer: customerOf(job),
    },
    meta,
  );
}

export function jobRescheduled(
  job: JobRow,
  from: { scheduledDate: string; timeSlot: string },
  by: string | null,
  at: Date,
  meta: EventMeta,
): EventEnvelope {
  return createEvent(
    JobRescheduled,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      from: { scheduledDate: from.scheduledDate, timeSlot: from.timeSlot as TimeSlot },
      to: slotOf(job),
      assignedTechnicianId: job.assignedTechnicianId,
      rescheduledBy: by,
      rescheduledAt: at.toISOString(),
      status: job.status,
    },
    meta,
  );
}

export function jobDeleted(job: JobRow, by: string | null, at: Date, meta: EventMeta): EventEnvelope {
  return createEvent(
    JobDeleted,
    {
      jobId: job.id,
      jobNumber: job.jobNumber,
      ...slotOf(job),
      deletedBy: by,
      deletedAt: at.toISOString(),
      status: job.status,
      assignedTechnicianId: job.assignedTechnicianId,
    },
    meta,
  );
}

/**
 * requestId is derived from the job and the moment work started, so a replayed request asks for one SMS.
 * `requestedBy` is the staff member who started the work: notify tells their dashboard how the delivery ended.
 */
export function enRouteSmsRequested(
  job: JobRow,
  message: EnRouteMessage,
  at: Date,
  meta: EventMeta,
  requestedBy: string,
): EventEnvelope {
  return createEvent(
    SmsRequested,
    {
      requestId: stableUuid(`${job.id}:${message.purpose}:${(job.inProgressAt ?? at).toISOString()}`),
      to: message.to,
      body: message.body,
      purpose: message.purpose,
      jobId: job.id,
      requestedAt: at.toISOString(),
      requestedBy,
    },
    meta,
  );
}
