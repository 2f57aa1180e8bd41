/**
 * The event catalogue. Each file holds one event at one version; the unversioned names (`BookingCreated`) point
 * at the version producers emit today. A breaking change adds a `.v2` file beside the v1 one, the producer emits
 * both until every consumer has moved, then v1 is removed.
 */
import { BookingCreatedV1 } from './booking-created.v1';
import { BookingPhotoAddedV1 } from './booking-photo-added.v1';
import { BookingQuotedV1 } from './booking-quoted.v1';
import { BookingExpiredV1 } from './booking-expired.v1';
import { BookingRescheduledV1 } from './booking-rescheduled.v1';
import { BookingCancelledV1 } from './booking-cancelled.v1';
import { BookingUpdatedV1 } from './booking-updated.v1';
import { SlotBlockedV1 } from './slot-blocked.v1';
import { SlotUnblockedV1 } from './slot-unblocked.v1';
import { JobStatusChangedV1 } from './job-status-changed.v1';
import { JobCompletedV1 } from './job-completed.v1';
import { JobAssignedV1 } from './job-assigned.v1';
import { JobRescheduledV1 } from './job-rescheduled.v1';
import { JobDeletedV1 } from './job-deleted.v1';
import { JobUpdatedV1 } from './job-updated.v1';
import { CustomerInvoiceIssuedV1 } from './customer-invoice-issued.v1';
import { CustomerInvoiceUpdatedV1 } from './customer-invoice-updated.v1';
import { CustomerInvoiceIssuedV2 } from './customer-invoice-issued.v2';
import { CustomerInvoiceUpdatedV2 } from './customer-invoice-updated.v2';
import { CustomerInvoiceDeletedV1 } from './customer-invoice-deleted.v1';
import { PurchaseInvoiceRecordedV1 } from './purchase-invoice-recorded.v1';
import { PurchaseInvoiceUpdatedV1 } from './purchase-invoice-updated.v1';
import { PurchaseInvoiceDeletedV1 } from './purchase-invoice-deleted.v1';
import { ExpenseRecordedV1 } from './expense-recorded.v1';
import { ExpenseUpdatedV1 } from './expense-updated.v1';
import { ExpenseDeletedV1 } from './expense-deleted.v1';
import { PaymentSucceededV1 } from './payment-succeeded.v1';
import { PaymentFailedV1 } from './payment-failed.v1';
import { UserCreatedV1 } from './user-created.v1';
import { UserStatusChangedV1 } from './user-status-changed.v1';
import { SmsRequestedV1 } from './sms-requested.v1';
import { EmailRequestedV1 } from './email-requested.v1';
import { CustomerErasedV1 } from './customer-erased.v1';
import { BookingPhotosDeletedV1 } from './booking-photos-deleted.v1';
import type { EventOf } from '../envelope';

/** Shared payload building blocks (enums of the spec, customer, vehicle, ...): `schemas.timeSlot.options`. */
export * as schemas from './common';
export type {
  Customer,
  CustomerInvoiceStatus,
  ExpenseCategory,
  InvoiceAmountType,
  JobStatus,
  LineItemCategory,
  LineItemCategoryV2,
  PaymentMethod,
  PaymentStatus,
  ServiceType,
  Slot,
  TimeSlot,
  UserRole,
  Vehicle,
} from './common';
export * from './booking-created.v1';
export * from './booking-photo-added.v1';
export * from './booking-quoted.v1';
export * from './booking-expired.v1';
export * from './booking-rescheduled.v1';
export * from './booking-cancelled.v1';
export * from './booking-updated.v1';
export * from './slot-blocked.v1';
export * from './slot-unblocked.v1';
export * from './job-status-changed.v1';
export * from './job-completed.v1';
export * from './job-assigned.v1';
export * from './job-rescheduled.v1';
export * from './job-deleted.v1';
export * from './job-updated.v1';
export * from './customer-invoice-issued.v1';
export * from './customer-invoice-updated.v1';
export * from './customer-invoice-issued.v2';
export * from './customer-invoice-updated.v2';
export * from './customer-invoice-deleted.v1';
export * from './purchase-invoice-recorded.v1';
export * from './purchase-invoice-updated.v1';
export * from './purchase-invoice-deleted.v1';
export * from './expense-recorded.v1';
export * from './expense-updated.v1';
export * from './expense-deleted.v1';
export * from './payment-succeeded.v1';
export * from './payment-failed.v1';
export * from './user-created.v1';
export * from './user-status-changed.v1';
export * from './sms-requested.v1';
export * from './email-requested.v1';
export * from './customer-erased.v1';
export * from './booking-photos-deleted.v1';

// Current versions (what producers emit and consumers subscribe to by default).
export const BookingCreated = BookingCreatedV1;
export const BookingPhotoAdded = BookingPhotoAddedV1;
export const BookingQuoted = BookingQuotedV1;
export const BookingExpired = BookingExpiredV1;
export const BookingRescheduled = BookingRescheduledV1;
export const BookingCancelled = BookingCancelledV1;
export const BookingUpdated = BookingUpdatedV1;
export const SlotBlocked = SlotBlockedV1;
export const SlotUnblocked = SlotUnblockedV1;
export const JobStatusChanged = JobStatusChangedV1;
export const JobCompleted = JobCompletedV1;
export const JobAssigned = JobAssignedV1;
export const JobRescheduled = JobRescheduledV1;
export const JobDeleted = JobDeletedV1;
export const JobUpdated = JobUpdatedV1;
// Billing emits v2 only (issue 12: amount type, GST-free lines, surcharge line, payment link). Consumers subscribe to
// v1 as well: events already queued or stored (reporting's rebuild) are v1, and read as tax exclusive.
export const CustomerInvoiceIssued = CustomerInvoiceIssuedV2;
export const CustomerInvoiceUpdated = CustomerInvoiceUpdatedV2;
export const CustomerInvoiceDeleted = CustomerInvoiceDeletedV1;
export const PurchaseInvoiceRecorded = PurchaseInvoiceRecordedV1;
export const PurchaseInvoiceUpdated = PurchaseInvoiceUpdatedV1;
export const PurchaseInvoiceDeleted = PurchaseInvoiceDeletedV1;
export const ExpenseRecorded = ExpenseRecordedV1;
export const ExpenseUpdated = ExpenseUpdatedV1;
export const ExpenseDeleted = ExpenseDeletedV1;
export const PaymentSucceeded = PaymentSucceededV1;
export const PaymentFailed = PaymentFailedV1;
export const UserCreated = UserCreatedV1;
export const UserStatusChanged = UserStatusChangedV1;
export const SmsRequested = SmsRequestedV1;
export const EmailRequested = EmailRequestedV1;
export const CustomerErased = CustomerErasedV1;
export const BookingPhotosDeleted = BookingPhotosDeletedV1;

/** Every contract of every version still in use. Add new versions here. */
export const contractList = [
  BookingCreatedV1,
  BookingPhotoAddedV1,
  BookingQuotedV1,
  BookingExpiredV1,
  BookingRescheduledV1,
  BookingCancelledV1,
  BookingUpdatedV1,
  SlotBlockedV1,
  SlotUnblockedV1,
  JobStatusChangedV1,
  JobCompletedV1,
  JobAssignedV1,
  JobRescheduledV1,
  JobDeletedV1,
  JobUpdatedV1,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV2,
  CustomerInvoiceDeletedV1,
  PurchaseInvoiceRecordedV1,
  PurchaseInvoiceUpdatedV1,
  PurchaseInvoiceDeletedV1,
  ExpenseRecordedV1,
  ExpenseUpdatedV1,
  ExpenseDeletedV1,
  PaymentSucceededV1,
  PaymentFailedV1,
  UserCreatedV1,
  UserStatusChangedV1,
  SmsRequestedV1,
  EmailRequestedV1,
  CustomerErasedV1,
  BookingPhotosDeletedV1,
] as const;

export type KnownContract = (typeof contractList)[number];
export type EventType = KnownContract['type'];
/** Any known event, discriminated by `type`. */
export type AnyEvent = { [C in KnownContract as C['type']]: EventOf<C> }[EventType];
export type ContractByType = { [C in KnownContract as C['type']]: C };

function byType<const L extends readonly KnownContract[]>(list: L): ContractByType {
  const out: Record<string, KnownContract> = {};
  for (const contract of list) {
    if (out[contract.type]) throw new Error(`Duplicate event contract ${contract.type}`);
    out[contract.type] = contract;
  }
  return Object.freeze(out) as ContractByType;
}

/** The registry: contract by type (routing key). */
export const contracts: ContractByType = byType(contractList);
