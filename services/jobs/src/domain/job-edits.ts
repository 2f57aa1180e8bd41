/**
 * Issue 19: an admin edits a job after booking (price, address, vehicle, notes, tyre details) with a reason. The
 * rules, without I/O: which fields differ from the job as it is, and when the price may no longer change.
 */
import type { JobEditableField, Money } from '@tyres/events';
import type { JobRow } from './job-view';
import type { JobStatus } from './status';

export type EditableField = JobEditableField;

export interface VehicleValue {
  make: string;
  model: string;
  year: number;
  color: string | null;
  registration: string;
}

/** The editable fields' values (what the JobUpdated event carries, and what an edit's before/after hold). */
export interface EditableValues {
  customerValue: Money;
  address: string;
  suburb: string;
  postcode: string;
  vehicle: VehicleValue;
  notes: string | null;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
}

/** What the admin asked to change (absent = unchanged), as the request schema parsed it. */
export type EditRequest = Partial<Omit<EditableValues, 'vehicle'>> & {
  /** `color` absent keeps the job's colour. */
  vehicle?: Omit<VehicleValue, 'color'> & { color?: string | null };
};

export interface FieldChange {
  field: EditableField;
  before: unknown;
  after: unknown;
}

/** The order fields are listed in (history, events). */
export const EDITABLE_FIELDS: readonly EditableField[] = [
  'customerValue',
  'address',
  'suburb',
  'postcode',
  'vehicle',
  'notes',
  'tyreSize',
  'tyreQuantity',
  'tyreBrand',
];

export function editableValues(job: JobRow): EditableValues {
  return {
    customerValue: job.customerValue,
    address: job.address,
    suburb: job.suburb,
    postcode: job.postcode,
    vehicle: {
      make: job.vehicleMake,
      model: job.vehicleModel,
      year: job.vehicleYear,
      color: job.vehicleColor,
      registration: job.vehicleRegistration,
    },
    notes: job.notes,
    tyreSize: job.tyreSize,
    tyreQuantity: job.tyreQuantity,
    tyreBrand: job.tyreBrand,
  };
}

/** The vehicle after the edit, keys in the stored order (an absent colour keeps the job's). */
function vehicleAfter(current: VehicleValue, v: NonNullable<EditRequest['vehicle']>): VehicleValue {
  return {
    make: v.make,
    model: v.model,
    year: v.year,
    color: v.color === undefined ? current.color : v.color,
    registration: v.registration,
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The requested fields whose value differs from the job's, in EDITABLE_FIELDS order. */
export function diffEdit(current: EditableValues, request: EditRequest): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of EDITABLE_FIELDS) {
    const after = request[field];
    if (after === undefined) continue;
    const before = current[field];
    const normalised = field === 'vehicle' ? vehicleAfter(current.vehicle, request.vehicle!) : after;
    if (!same(before, normalised)) changes.push({ field, before, after: normalised });
  }
  return changes;
}

/** The job's editable values with the changes applied. */
export function applyChanges(current: EditableValues, changes: readonly FieldChange[]): EditableValues {
  const out: EditableValues = { ...current };
  for (const c of changes) Object.assign(out, { [c.field]: c.after });
  return out;
}

// ------------------------------------------------------------------------------------------------ messages

export const NOTHING_TO_EDIT = 'Change at least one field';
export const NOTHING_CHANGED = 'Nothing changed: the job already has these values';
export const REASON_REQUIRED = 'Please give a reason for the change';

export const editConflict = (jobNumber: string): string =>
  `Job ${jobNumber} was changed by someone else since you opened it. Reload it and try again.`;

/**
 * Why the price of this job can no longer change, or undefined when it can. Money already asked for or received
 * is the invoice's business: an issued invoice is a tax document that an edit of the job must not silently
 * contradict, so the admin changes the invoice itself (billing), or cancels it, edits the price and generates it
 * again. A cancelled job has no price to change; a paid job (or one paid by card at booking) was charged its price.
 */
export function priceEditRefusal(
  job: Pick<JobRow, 'jobNumber' | 'status' | 'paymentStatus'>,
  activeInvoiceNumber: string | undefined,
): string | undefined {
  const n = job.jobNumber;
  if (activeInvoiceNumber)
    return `Job ${n} has invoice ${activeInvoiceNumber}, so its price cannot change here. Change the amount on the invoice, or cancel the invoice, change the price and generate the invoice again.`;
  const status: JobStatus = job.status;
  if (status === 'cancelled') return `Job ${n} is cancelled: its price can no longer be changed.`;
  // Paid: the money was received (marked paid, or charged by card at booking). An invoiced job whose invoices were
  // all cancelled or deleted may be repriced: that is how an invoice is regenerated at a new price.
  if (status === 'paid' || job.paymentStatus === 'paid')
    return `Job ${n} is paid: its price can no longer be changed. Record a refund or a new invoice in billing instead.`;
  return undefined;
}
