/**
 * The "manage my booking" routes (manage.ts) in booking's OpenAPI document: merged into bookingPaths (openapi.ts),
 * so the contract check of the integration suites covers them like every other route.
 */
import { BOOKING_MESSAGES, vehicleYearMessage } from '@tyres/kernel';
import { errors, json, jsonBody, STAFF_ERRORS, type RoutePaths } from '@tyres/service-kit';
import { z } from 'zod';
import { MANAGE_MSG } from '../domain/manage';
import { MSG } from '../domain/messages';
import {
  manageCancelSchema,
  manageRescheduleSchema,
  manageUpdateSchema,
  NO_SHOW_NOTE_TOO_LONG,
  noShowSchema,
  STAFF_CANCEL_REASON,
  staffCancelSchema,
} from './manage-schemas';
import { JobPhotoSchema } from './responses';

const money = z.string().regex(/^-?\d+\.\d{2}$/);
const band = z.enum(['full_refund', 'half_refund', 'no_refund']);

/** What app/manage.ts manageView answers. */
export const ManagedBookingSchema = z
  .object({
    reference: z.string().meta({ description: 'The job number, e.g. JOB-000123.' }),
    status: z.enum(['confirmed', 'cancelled', 'in-progress', 'completed']),
    customerName: z.string(),
    serviceType: z.string(),
    scheduledDate: z.string().meta({ description: 'YYYY-MM-DD (Perth)' }),
    timeSlot: z.string(),
    slotStartsAt: z.string().meta({ description: 'The slot start as an instant (ISO 8601).' }),
    address: z.object({ street: z.string(), suburb: z.string(), postcode: z.string() }),
    vehicle: z.object({
      make: z.string(),
      model: z.string(),
      year: z.number().int(),
      color: z.string().nullable(),
      registration: z.string(),
    }),
    phone: z.string(),
    notes: z.string().nullable(),
    tyreSize: z.string().nullable(),
    tyreQuantity: z.number().int().nullable(),
    price: money.meta({ description: 'The booking price, GST inclusive.' }),
    paymentMethod: z.string(),
    paymentStatus: z.string(),
    amountPaid: money.nullable().meta({ description: 'What the card was charged, when paid online.' }),
    photoCount: z.number().int(),
    can: z.object({ reschedule: z.boolean(), cancel: z.boolean(), change: z.boolean() }),
    cancellation: z
      .object({
        band,
        description: z.string(),
        hoursBefore: z.number().int(),
        refundPercent: z.number().int(),
        refund: money,
        fee: money,
      })
      .nullable()
      .meta({
        description: 'The cancellation policy applied at this moment; null when it cannot be cancelled.',
      }),
    cancelled: z
      .object({
        cancelledAt: z.string(),
        cancelledBy: z.string().nullable(),
        reason: z.string().nullable(),
        band: z.string().nullable(),
        refundPercent: z.number().int().nullable(),
        refund: money.nullable(),
        fee: money.nullable(),
        feeWaived: z.boolean().nullable(),
        kind: z.enum(['cancellation', 'no_show']).meta({
          description: 'cancellation (under the policy) or no_show (staff marked the customer absent).',
        }),
      })
      .nullable(),
  })
  .meta({ id: 'ManagedBooking' });

const tokenParam = z.object({
  token: z.string().meta({ description: 'The token from the manage link (43 characters, base64url).' }),
});
const TAGS = ['Manage my booking'];
const ADMIN_ERRORS = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const jobIdParam = z.object({ jobId: z.string().meta({ description: 'The job (a UUID).' }) });
const NOT_FOUND = { 404: MANAGE_MSG.linkNotFound } as const;

export const managePaths: RoutePaths = {
  '/api/manage/{token}': {
    get: {
      summary: 'The booking a manage link opens, with the cancellation terms that apply now',
      tags: TAGS,
      requestParams: { path: tokenParam },
      responses: { '200': json('The booking', ManagedBookingSchema), ...errors(NOT_FOUND) },
    },
    patch: {
      summary: "Correct the customer's phone, notes or vehicle (the booking form's rules)",
      tags: TAGS,
      requestParams: { path: tokenParam },
      requestBody: jsonBody(manageUpdateSchema),
      responses: {
        '200': json('The booking as changed', ManagedBookingSchema),
        ...errors({
          400: [
            BOOKING_MESSAGES.phone,
            BOOKING_MESSAGES.notesTooLong,
            BOOKING_MESSAGES.make,
            vehicleYearMessage(2027),
            MANAGE_MSG.nothingToChange,
          ],
          ...NOT_FOUND,
          409: [MANAGE_MSG.cancelled, MANAGE_MSG.finished],
        }),
      },
    },
  },
  '/api/manage/{token}/reschedule': {
    post: {
      summary: 'Move the booking to another free slot (the old one is freed in the same transaction)',
      tags: TAGS,
      requestParams: { path: tokenParam },
      requestBody: jsonBody(manageRescheduleSchema),
      responses: {
        '200': json('The booking at its new time', ManagedBookingSchema),
        ...errors({
          400: [
            MSG.invalidDateOrSlot,
            BOOKING_MESSAGES.selectDate,
            BOOKING_MESSAGES.invalidSlot,
            'Bookings open {days} days ahead. Please choose a date on or before {date}.',
          ],
          ...NOT_FOUND,
          409: [
            MSG.slotJustBooked,
            MSG.slotNoLongerAvailable,
            MANAGE_MSG.cancelled,
            MANAGE_MSG.started,
            MANAGE_MSG.finished,
          ],
        }),
      },
    },
  },
  '/api/manage/{token}/cancel': {
    post: {
      summary: 'Cancel the booking under the cancellation policy (the slot is freed at once)',
      tags: TAGS,
      requestParams: { path: tokenParam },
      requestBody: { ...jsonBody(manageCancelSchema), required: false },
      responses: {
        '200': json('The cancelled booking with the terms applied', ManagedBookingSchema),
        ...errors({
          400: [
            'The reason is too long (500 characters at most)',
            'expected.band must be full_refund, half_refund or no_refund',
          ],
          ...NOT_FOUND,
          409: [MANAGE_MSG.cancelled, MANAGE_MSG.cannotCancel, MANAGE_MSG.termsChanged],
        }),
      },
    },
  },
  '/api/manage/{token}/photos': {
    post: {
      summary: 'Add tyre photos to the booking',
      tags: TAGS,
      requestParams: { path: tokenParam },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              photos: z
                .array(z.string().meta({ format: 'binary' }))
                .meta({ description: 'JPEG, PNG or WebP, 5 MB each.' }),
              type: z.enum(['tyre-condition']).optional(),
            }),
          },
        },
      },
      responses: {
        '201': json('The stored photos', z.object({ photos: z.array(JobPhotoSchema) })),
        ...errors({
          400: [
            MSG.photoType,
            MSG.photoSize,
            MSG.photoCount(5),
            MSG.photoNone,
            MSG.photoKind,
            'Upload the photos as multipart/form-data in the "photos" field.',
            'The upload was malformed or interrupted. Please try again.',
            'The upload was interrupted. Please try again.',
          ],
          ...NOT_FOUND,
          409: [MANAGE_MSG.cancelled, MANAGE_MSG.finished],
        }),
      },
    },
  },
  '/api/dashboard/bookings/{jobId}/cancellation': {
    get: {
      summary: "A job's booking with the cancellation terms that apply now (before staff confirm a cancel)",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      responses: {
        '200': json('The booking', ManagedBookingSchema),
        ...errors({ ...ADMIN_ERRORS, 404: MANAGE_MSG.noBooking }),
      },
    },
  },
  '/api/dashboard/bookings/{jobId}/cancel': {
    post: {
      summary:
        "Cancel a job's booking under the policy, with a reason, optionally waiving the fee (slot freed at once)",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      requestBody: jsonBody(staffCancelSchema),
      responses: {
        '200': json('The cancelled booking with the terms applied', ManagedBookingSchema),
        ...errors({
          400: [
            STAFF_CANCEL_REASON,
            'The reason is too long (500 characters at most)',
            'waiveFee must be true or false',
          ],
          ...ADMIN_ERRORS,
          404: MANAGE_MSG.noBooking,
          409: [MANAGE_MSG.cancelled, MANAGE_MSG.finished, MANAGE_MSG.termsChanged],
        }),
      },
    },
  },
  '/api/dashboard/bookings/{jobId}/no-show': {
    post: {
      summary:
        "Mark a job's booking as a no-show once its slot has started: charged in full (an invoice for the price, " +
        'or no refund of a prepaid booking)',
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      requestBody: jsonBody(noShowSchema),
      responses: {
        '200': json('The booking, cancelled with the no-show terms applied', ManagedBookingSchema),
        ...errors({
          400: NO_SHOW_NOTE_TOO_LONG,
          ...ADMIN_ERRORS,
          404: MANAGE_MSG.noBooking,
          409: [MANAGE_MSG.noShowCancelled, MANAGE_MSG.noShowFinished, MANAGE_MSG.noShowNotStarted],
        }),
      },
    },
  },
};
