import type { Money } from '@tyres/events';
import type { ScheduleStatus } from './schedule';
import type { JobStatus } from './status';

/** A job as the repository reads it: money already a 2-decimal string, dates `YYYY-MM-DD`, instants as Date. */
export interface JobRow {
  id: string;
  jobNumber: string;
  customerId: string;
  vehicleId: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  vehicleMake: string;
  vehicleModel: string;
  vehicleYear: number;
  vehicleColor: string | null;
  vehicleRegistration: string;
  assignedTechnicianId: string | null;
  serviceType: string;
  status: JobStatus;
  scheduledDate: string;
  scheduledDay: string;
  timeSlot: string;
  address: string;
  suburb: string;
  postcode: string;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
  notes: string | null;
  customerValue: Money;
  purchaseCost: Money | null;
  purchaseInvoice: string | null;
  paymentMethod: string;
  paymentStatus: string;
  stripePaymentIntentId: string | null;
  channel: string;
  createdAt: Date;
  updatedAt: Date;
  inProgressAt: Date | null;
  completedAt: Date | null;
  invoicedAt: Date | null;
  paidAt: Date | null;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  cancellationReason: string | null;
  slotChangedAt: Date | null;
  deletedAt: Date | null;
  deletedBy: string | null;
}

export interface PhotoView {
  id: string;
  type: string;
  originalName: string;
}

/** Spec section 3, "Job (dashboard)". Built by Postgres for reads: src/db/job-json.ts. */
export interface DashboardJob {
  id: string;
  jobNumber: string;
  status: JobStatus;
  serviceType: string;
  tyreSize: string | null;
  tyreQuantity: number | null;
  address: string;
  suburb: string;
  postcode: string;
  scheduledDate: string;
  timeSlot: string;
  customerValue: Money;
  assignedTechnicianId: string | null;
  createdAt: string;
  inProgressAt: string | null;
  completedAt: string | null;
  invoicedAt: string | null;
  paidAt: string | null;
  customer: { name: string; phone: string; email: string };
  vehicle: { make: string; model: string; year: number; registration: string };
  photos: PhotoView[];
}

/** jobs-with-details and the job detail: the dashboard shape plus what the schedule and detail screens use. */
export interface DetailedJob extends DashboardJob {
  scheduledDay: string;
  scheduleStatus: ScheduleStatus;
  assignedTechnician: { id: string; username: string } | null;
  paymentMethod: string;
  paymentStatus: string;
  tyreBrand: string | null;
  notes: string | null;
  purchaseCost: Money | null;
  hasCustomerInvoice: boolean;
  cancelledAt: string | null;
  updatedAt: string;
}

export interface LineItemView {
  id: string;
  jobId: string;
  type: string;
  category: string;
  description: string;
  quantity: number;
  unitCost: Money;
  totalCost: Money;
  unitPrice: Money;
  totalPrice: Money;
  profitMargin: string | null;
  createdAt: string;
}

export interface JobDetail extends DetailedJob {
  lineItems: LineItemView[];
}

/** Which stored document a list sends: the spec's "Job (dashboard)" or the detailed job. */
export type JobShape = 'dashboard' | 'details';

/** One page of a list: the JSON array text as Postgres built it, and the total for the pagination headers. */
export interface JsonPage {
  body: string;
  total: number;
}
