/**
 * The shapes the dashboard reads, named for the screens. Each is the services' own OpenAPI schema, generated into
 * @tyres/platform/api-types by `npm run api:types`: a field a service renames or drops fails this front end's
 * typecheck. Only the WebSocket notification, which is not an HTTP answer, is declared here by hand.
 */
import type { components as Billing } from '@tyres/platform/api-types/billing';
import type { components as Booking } from '@tyres/platform/api-types/booking';
import type { components as Gateway } from '@tyres/platform/api-types/gateway';
import type { components as Jobs } from '@tyres/platform/api-types/jobs';
import type { components as Reporting } from '@tyres/platform/api-types/reporting';

type BillingSchemas = Billing['schemas'];
type BookingSchemas = Booking['schemas'];
type JobsSchemas = Jobs['schemas'];
type GatewaySchemas = Gateway['schemas'];
type ReportingSchemas = Reporting['schemas'];

export type JobPhoto = JobsSchemas['JobPhoto'];
/** A job in the lists (GET /api/dashboard/jobs-with-details) and the schedule. */
export type Job = JobsSchemas['DetailedJob'];
/** One job with its line items (GET /api/dashboard/jobs/{id}, and the answer of assign and reschedule). */
export type JobDetail = JobsSchemas['JobDetail'];
/** PATCH /api/dashboard/jobs/{id}/status: the job and whether an SMS was asked for. */
export type JobStatusChange = JobsSchemas['JobStatusChange'];
export type Technician = JobsSchemas['Technician'];

export type PurchaseInvoice = BillingSchemas['PurchaseInvoice'];
export type CustomerInvoiceItem = BillingSchemas['CustomerInvoiceItem'];
/** One invoice with its lines (GET /api/dashboard/customer-invoices/{id}). */
export type CustomerInvoice = BillingSchemas['CustomerInvoice'];
/** An invoice in the list and a job's invoices (no lines). */
export type CustomerInvoiceSummary = BillingSchemas['CustomerInvoiceSummary'];
export type BusinessExpense = BillingSchemas['BusinessExpense'];
export type InvoicePdfRequest = BillingSchemas['InvoicePdfRequest'];

/** A slot of a date in the time slot management tab, with its state and booking. */
export type TimeSlot = BookingSchemas['AdminSlot'];
/** A job already in a blocked time, which the block keeps (never moved or cancelled): listed by date and slot. */
export type KeptBooking = BookingSchemas['KeptBooking'];
/** A slot of a date as the staff booking form offers it (GET /api/time-slots/availability). */
export type SlotAvailability = BookingSchemas['PublicSlot'];
export type AddressSuggestion = BookingSchemas['AddressSuggestion'];

/** A staff account (GET /api/admin/users, and the session user of GET /api/user and POST /api/login; gateway). */
export type StaffUser = GatewaySchemas['StaffUser'];

export type GstReport = ReportingSchemas['GstReport'];
export type PayablesReport = ReportingSchemas['PayablesReport'];
export type EnhancedPlReport = ReportingSchemas['EnhancedPl'];
export type BreakdownEntry = EnhancedPlReport['breakdown']['topRevenueStreams'][number];

/** Notification (a WebSocket message from notify: not an HTTP answer, so not in an OpenAPI document). */
export interface BookingNotification {
  type: 'new_booking' | 'job_assigned';
  data: {
    id: string;
    jobNumber: string;
    serviceType: string;
    suburb: string;
    timeSlot: string;
    createdAt: string;
    scheduledDate?: string;
  };
}

/** A page of a paginated list: the items and the total the server counted (X-Total-Count). */
export type { Page } from '@tyres/platform';
