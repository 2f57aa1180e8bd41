import { randomUUID } from 'node:crypto';
import type {
  BookingCreatedV1Data,
  CustomerInvoiceUpdatedV2Data,
  JobCompletedV1Data,
  JobAssignedV1Data,
  SmsRequestedV1Data,
  EmailRequestedV1Data,
} from '@tyres/events';

/** A valid BookingCreated payload; override what a test cares about. */
export function bookingCreated(overrides: Partial<BookingCreatedV1Data> = {}): BookingCreatedV1Data {
  return {
    jobId: randomUUID(),
    jobNumber: `JOB-${Math.floor(100000 + Math.random() * 900000)}`,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: 'new-tyres',
    scheduledDate: '2026-11-24',
    timeSlot: '8-10 AM',
    address: '12 Beaufort Street',
    suburb: 'Mount Lawley',
    postcode: '6050',
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    tyreBrand: 'Michelin',
    notes: null,
    customerValue: '705.80',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    channel: 'online',
    customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2019, registration: '1ABC234' },
    createdAt: '2026-11-21T02:15:00.000Z',
    ...overrides,
  };
}

export function jobAssigned(overrides: Partial<JobAssignedV1Data> = {}): JobAssignedV1Data {
  return {
    jobId: randomUUID(),
    jobNumber: 'JOB-200001',
    technicianId: randomUUID(),
    previousTechnicianId: null,
    scheduledDate: '2026-11-24',
    timeSlot: '10-12 AM',
    assignedBy: randomUUID(),
    assignedAt: '2026-11-21T03:00:00.000Z',
    status: 'new',
    serviceType: 'puncture-repair',
    suburb: 'Fremantle',
    customerValue: '129.80',
    customer: { name: 'Sam Driver', email: 'sam@example.com', phone: '0498 765 432' },
    ...overrides,
  };
}

export function smsRequested(overrides: Partial<SmsRequestedV1Data> = {}): SmsRequestedV1Data {
  return {
    requestId: randomUUID(),
    to: '0412 345 678',
    body: 'Mobile Tyres Perth: your technician is en route, ETA 10:45.',
    purpose: 'technician-en-route',
    jobId: randomUUID(),
    requestedAt: new Date().toISOString(),
    ...overrides,
  };
}

export function emailRequested(overrides: Partial<EmailRequestedV1Data> = {}): EmailRequestedV1Data {
  return {
    requestId: randomUUID(),
    to: 'customer@example.com',
    subject: 'Your invoice',
    text: 'Please find your invoice details below.',
    purpose: 'invoice',
    jobId: null,
    requestedAt: new Date().toISOString(),
    ...overrides,
  };
}

/** A JobCompleted payload for a job (the customer notify asks for a review). */
export function jobCompletedData(jobId: string, email = 'Jane@Example.com'): JobCompletedV1Data {
  return {
    jobId,
    jobNumber: 'JOB-000777',
    serviceType: 'puncture-repair',
    scheduledDate: '2026-11-24',
    timeSlot: '8-10 AM',
    suburb: 'Fremantle',
    customerValue: '129.80',
    purchaseCost: null,
    assignedTechnicianId: null,
    customer: { name: 'Jane Citizen', email, phone: '0412 345 678' },
    completedAt: '2026-11-24T02:00:00.000Z',
  };
}

/** A customer invoice snapshot (v2) of a job, paid unless told. */
export function invoiceData(jobId: string, status: 'paid' | 'sent' = 'paid'): CustomerInvoiceUpdatedV2Data {
  return {
    invoiceId: randomUUID(),
    invoiceNumber: 'INV-0001',
    jobId,
    jobNumber: 'JOB-000777',
    customerName: 'Jane Citizen',
    status,
    amountType: 'inclusive',
    invoiceDate: '2026-11-24',
    dueDate: '2026-12-08',
    subtotalAmount: '118.00',
    gstAmount: '11.80',
    totalAmount: '129.80',
    items: [],
    paymentIntentId: null,
    sentAt: null,
    paidAt: status === 'paid' ? '2026-11-24T03:00:00.000Z' : null,
    updatedAt: '2026-11-24T03:00:00.000Z',
    changedFields: ['status', 'paidAt'],
  };
}
