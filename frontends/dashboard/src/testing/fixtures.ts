/**
 * The answers the dashboard's component tests stub, as the services document them. Each builder is typed by the
 * generated types (@tyres/platform/api-types: tsc fails on a field a service renames), and DASHBOARD_FIXTURES lists
 * the default of each with the operation it answers, which test/unit/api-types-fixtures.test.ts checks against the
 * response schema in the service's OpenAPI document. Plain data only: that unit test loads this file in Node.
 */
import type { components as Billing, paths as BillingPaths } from '../../../platform/src/api-types/billing';
import type { components as Booking, paths as BookingPaths } from '../../../platform/src/api-types/booking';
import type { components as Jobs, paths as JobsPaths } from '../../../platform/src/api-types/jobs';
import { answerOf, type AnswerFixture } from '../../../platform/src/typed-api';

type JobsSchemas = Jobs['schemas'];
type BillingSchemas = Billing['schemas'];
type BookingSchemas = Booking['schemas'];

export const JOB_ID = '11111111-1111-4111-8111-111111111111';
export const TECHNICIAN_ID = '22222222-2222-4222-8222-222222222222';
export const INVOICE_ID = '33333333-3333-4333-8333-333333333333';

/** A job as GET /api/dashboard/jobs-with-details lists it (a new, unassigned new-tyres job), with overrides. */
export function job(overrides: Partial<JobsSchemas['DetailedJob']> = {}): JobsSchemas['DetailedJob'] {
  return {
    id: JOB_ID,
    jobNumber: 'JOB-000123',
    status: 'new',
    serviceType: 'new-tyres',
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    address: '1234 Very Long Street Name That Keeps Going',
    suburb: 'Joondalup',
    postcode: '6027',
    scheduledDate: '2026-11-25',
    timeSlot: '8-10 AM',
    customerValue: '749.80',
    assignedTechnicianId: null,
    createdAt: '2026-11-20T01:00:00.000Z',
    inProgressAt: null,
    completedAt: null,
    invoicedAt: null,
    paidAt: null,
    customer: { name: 'Olivia Smith', phone: '0412 345 678', email: 'olivia@example.com' },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, registration: '1ABC234' },
    photos: [],
    scheduledDay: 'Wednesday',
    scheduleStatus: 'pending',
    assignedTechnician: null,
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    tyreBrand: null,
    notes: null,
    purchaseCost: null,
    hasCustomerInvoice: false,
    cancelledAt: null,
    updatedAt: '2026-11-20T01:00:00.000Z',
    ...overrides,
  };
}

/** One job as GET /api/dashboard/jobs/{id} answers it: the listed job and its line items. */
export function jobDetail(overrides: Partial<JobsSchemas['JobDetail']> = {}): JobsSchemas['JobDetail'] {
  return { ...job(), lineItems: [], ...overrides };
}

export function technician(overrides: Partial<JobsSchemas['Technician']> = {}): JobsSchemas['Technician'] {
  return {
    id: TECHNICIAN_ID,
    username: 'sam',
    email: null,
    role: 'technician',
    isActive: true,
    ...overrides,
  };
}

/** The job as billing embeds it in an invoice. */
function invoiceJob(): BillingSchemas['InvoiceJob'] {
  const { id, jobNumber, status, serviceType, scheduledDate, timeSlot, address, suburb, postcode } = job();
  return {
    id,
    jobNumber,
    status,
    serviceType,
    scheduledDate,
    timeSlot,
    address,
    suburb,
    postcode,
    customerValue: '749.80',
    assignedTechnicianId: null,
    customer: { name: 'Olivia Smith', email: 'olivia@example.com', phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, color: 'White', registration: '1ABC234' },
  };
}

/** An invoice as the invoice list and a job's invoices show it (no lines). */
export function invoiceSummary(
  overrides: Partial<BillingSchemas['CustomerInvoiceSummary']> = {},
): BillingSchemas['CustomerInvoiceSummary'] {
  return {
    id: INVOICE_ID,
    jobId: JOB_ID,
    invoiceNumber: 'INV-000045',
    status: 'draft',
    isOverdue: false,
    daysUntilDue: 14,
    invoiceDate: '2026-11-25',
    dueDate: '2026-12-09',
    subtotalAmount: '681.64',
    gstAmount: '68.16',
    totalAmount: '749.80',
    amountType: 'inclusive',
    paymentIntentId: null,
    pdfPath: null,
    sentAt: null,
    paidAt: null,
    createdAt: '2026-11-25T02:00:00.000Z',
    updatedAt: '2026-11-25T02:00:00.000Z',
    jobNumber: 'JOB-000123',
    customerName: 'Olivia Smith',
    job: invoiceJob(),
    ...overrides,
  };
}

/** One invoice with its lines (GET /api/dashboard/customer-invoices/{id}). */
export function customerInvoice(
  overrides: Partial<BillingSchemas['CustomerInvoice']> = {},
): BillingSchemas['CustomerInvoice'] {
  return {
    ...invoiceSummary(),
    items: [
      {
        id: '44444444-4444-4444-8444-444444444444',
        customerInvoiceId: INVOICE_ID,
        description: 'Tyre fitting (4)',
        category: 'labour',
        quantity: 4,
        unitPrice: '187.45',
        totalPrice: '749.80',
        gstFree: false,
      },
    ],
    ...overrides,
  };
}

export function purchaseInvoice(
  overrides: Partial<BillingSchemas['PurchaseInvoice']> = {},
): BillingSchemas['PurchaseInvoice'] {
  return {
    id: '55555555-5555-4555-8555-555555555555',
    jobId: JOB_ID,
    invoiceNumber: 'SUP-881',
    supplierName: 'Tyre Wholesale WA',
    invoiceDate: '2026-11-24',
    totalAmount: '430.00',
    gstAmount: '39.09',
    subtotal: '390.91',
    gstFree: false,
    category: 'cost-of-goods-sold',
    dueDate: null,
    isPaid: false,
    paidAt: null,
    notes: null,
    createdAt: '2026-11-24T03:00:00.000Z',
    updatedAt: '2026-11-24T03:00:00.000Z',
    ...overrides,
  };
}

export function expense(
  overrides: Partial<BillingSchemas['BusinessExpense']> = {},
): BillingSchemas['BusinessExpense'] {
  return {
    id: '66666666-6666-4666-8666-666666666666',
    supplierName: 'Ampol',
    invoiceNumber: null,
    description: 'Van fuel',
    amount: '110.00',
    gstAmount: '10.00',
    gstFree: false,
    category: 'fuel',
    expenseDate: '2026-11-20',
    dueDate: null,
    isPaid: true,
    paidAt: '2026-11-20T04:00:00.000Z',
    notes: null,
    createdAt: '2026-11-20T04:00:00.000Z',
    updatedAt: '2026-11-20T04:00:00.000Z',
    ...overrides,
  };
}

/** A free slot in the time slot management tab. */
export function adminSlot(overrides: Partial<BookingSchemas['AdminSlot']> = {}): BookingSchemas['AdminSlot'] {
  return {
    id: '2026-11-25_8-10 AM',
    date: '2026-11-25',
    slot: '8-10 AM',
    isAvailable: true,
    blockedReason: null,
    isBlocked: false,
    state: 'available',
    booking: null,
    bookings: [],
    capacity: 1,
    ...overrides,
  };
}

/** A job a block keeps (PATCH .../block and POST /api/dashboard/calendar/blocks list them in keptBookings). */
export function keptBooking(
  overrides: Partial<BookingSchemas['KeptBooking']> = {},
): BookingSchemas['KeptBooking'] {
  return {
    jobId: JOB_ID,
    jobNumber: 'JOB-000123',
    date: '2026-11-25',
    slot: '10-12 AM',
    kind: 'booking',
    ...overrides,
  };
}

/** A slot as PATCH /api/dashboard/timeslots/{date}/{slot}/block answers it: blocked, with the jobs it keeps. */
export function blockedSlot(
  overrides: Partial<BookingSchemas['BlockedSlot']> = {},
): BookingSchemas['BlockedSlot'] {
  return {
    ...adminSlot({ isAvailable: false, blockedReason: 'Van service', isBlocked: true, state: 'blocked' }),
    keptBookings: [],
    ...overrides,
  };
}

/** A calendar block as POST /api/dashboard/calendar/blocks answers it (a whole day), with the jobs it keeps. */
export function addedCalendarBlock(
  overrides: Partial<BookingSchemas['AddedCalendarBlock']> = {},
): BookingSchemas['AddedCalendarBlock'] {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    kind: 'day',
    startDate: '2026-11-25',
    endDate: null,
    weekday: null,
    timeSlot: null,
    reason: 'Staff training',
    createdAt: '2026-11-20T04:00:00.000Z',
    keptBookings: [],
    ...overrides,
  };
}

const jobs = answerOf<JobsPaths>('jobs');
const billing = answerOf<BillingPaths>('billing');
const booking = answerOf<BookingPaths>('booking');

/** Each builder's default, with the operation it answers in the tests. */
export const DASHBOARD_FIXTURES: readonly AnswerFixture[] = [
  jobs('get', '/api/dashboard/jobs-with-details', 200, [job(), job({ scheduleStatus: 'confirmed' })]),
  jobs('get', '/api/dashboard/jobs/{id}', 200, jobDetail()),
  jobs('get', '/api/dashboard/technicians', 200, [technician()]),
  billing('get', '/api/dashboard/customer-invoices', 200, [invoiceSummary()]),
  billing('get', '/api/dashboard/customer-invoices/job/{jobId}', 200, [customerInvoice()]),
  billing('get', '/api/dashboard/customer-invoices/{id}', 200, customerInvoice()),
  billing('get', '/api/dashboard/purchase-invoices/job/{jobId}', 200, [purchaseInvoice()]),
  billing('get', '/api/dashboard/business-expenses', 200, [expense()]),
  booking('get', '/api/dashboard/timeslots/{date}', 200, [
    adminSlot(),
    adminSlot({
      id: '2026-11-25_10-12 AM',
      slot: '10-12 AM',
      isAvailable: false,
      state: 'booked',
      booking: { jobId: JOB_ID, jobNumber: 'JOB-000123', kind: 'booking' },
    }),
  ]),
  booking(
    'patch',
    '/api/dashboard/timeslots/{date}/{slot}/block',
    200,
    blockedSlot({
      slot: '10-12 AM',
      booking: { jobId: JOB_ID, jobNumber: 'JOB-000123', kind: 'booking' },
      bookings: [{ jobId: JOB_ID, jobNumber: 'JOB-000123', kind: 'booking' }],
      keptBookings: [keptBooking()],
    }),
  ),
  booking(
    'post',
    '/api/dashboard/calendar/blocks',
    201,
    addedCalendarBlock({ keptBookings: [keptBooking()] }),
  ),
];
