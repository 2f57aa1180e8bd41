import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime } from './common';

/**
 * booking -> jobs, billing, reporting, notify (issue 18, privacy): an admin erased a customer on request (Australian
 * Privacy Principle 11.2). Every service de-identifies what it holds about the listed jobs/bookings (name, contact,
 * address, vehicle, photos, message bodies) and keeps a tombstone, so an older event replayed afterwards cannot bring
 * the data back. Billing keeps the tax records the law requires (invoices five years) with the customer shown as
 * erased. The payload carries NO personal data: only ids and when/who.
 */
export const CustomerErasedV1Data = z.object({
  customerId: id,
  erasedAt: isoDateTime,
  erasedByUserId: id,
  /** The jobs of the customer's bookings (the id every other service keys its rows by). */
  jobIds: z.array(id).max(10_000),
  bookingIds: z.array(id).max(10_000),
});
export type CustomerErasedV1Data = z.infer<typeof CustomerErasedV1Data>;

export const CustomerErasedV1 = defineContract({
  type: 'customer.erased.v1',
  name: 'CustomerErased',
  version: 1,
  schema: CustomerErasedV1Data,
});

/** What every service writes in place of the customer's name once erased. */
export const ERASED_CUSTOMER_NAME = 'Erased customer';
