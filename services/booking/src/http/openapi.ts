/**
 * Booking's OpenAPI document (issue 17): every route in routes.ts, with the request schemas that validate it and the
 * response schemas of responses.ts. The integration suites check every answer against it (strict), and
 * test/integration/openapi.int.test.ts fails when routes.ts has a route this file does not describe.
 */
import { customerBookingSchema, priceQuoteSchema, staffBookingSchema } from '@tyres/kernel';
import {
  errors,
  json,
  jsonBody,
  serviceOpenApiDocument,
  STAFF_ERRORS,
  UNAVAILABLE,
  type OpenApiDocument,
  type RoutePaths,
} from '@tyres/service-kit';
import { z } from 'zod';
import { MSG } from '../domain/messages';
import {
  AddressSuggestionsSchema,
  AdminSlotSchema,
  BlockedSlotSchema,
  BookingByTokenSchema,
  BookingConfirmationSchema,
  CustomQuoteNeededSchema,
  InternalBookingByTokenSchema,
  JobPhotoSchema,
  LocalityListSchema,
  MovedReservationSchema,
  PrepaidQuoteSchema,
  PriceListSchema,
  PriceQuoteSchema,
  PublicSlotSchema,
  SuburbPageSchema,
  SuburbRegionsSchema,
  TyrePriceSchema,
} from './responses';
import { managePaths } from './manage-openapi';
import { erasurePaths } from './erasure-openapi';
import { calendarPaths } from './calendar-openapi';
import { priceListPaths } from './price-list-openapi';
import { blockSlotSchema, moveReservationSchema } from './schemas';

const ADMIN_ERRORS = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const HORIZON = 'Bookings open {days} days ahead. Please choose a date on or before {date}.';
const VALIDATION =
  'The first problem with the request, e.g. "Valid email required" (details lists each field)';
const IDEMPOTENCY_FORMAT = 'Idempotency-Key must be 1-200 printable characters';
const IDEMPOTENCY_REUSED = 'This Idempotency-Key was already used for a different request';

const dateQuery = z.object({
  date: z.string().meta({ description: 'A Perth calendar date, today or later (YYYY-MM-DD).' }),
});
const dateParam = z.object({ date: z.string().meta({ description: 'YYYY-MM-DD, today or later.' }) });
const slotParams = z.object({
  date: z.string().meta({ description: 'YYYY-MM-DD' }),
  slot: z.string().meta({ description: 'The slot label, e.g. "8-10 AM" ("+" for spaces is accepted).' }),
});
const jobIdParam = z.object({ jobId: z.string().meta({ description: 'The job (a UUID).' }) });
const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .meta({ description: 'Sending the same request again with the same key replays the first answer.' }),
});

const bookingBody = {
  required: true,
  description:
    'The public dialog sends the customer form; the dashboard New Booking form (signed in, with vehicle.color) the staff form.',
  content: { 'application/json': { schema: z.union([customerBookingSchema, staffBookingSchema]) } },
};

const tyrePrice = {
  summary: 'Retail price of one tyre of a size',
  description: 'The cheapest active tyre of the size, preferring `brand` when given.',
  tags: ['Pricing'],
  requestParams: { query: z.object({ brand: z.string().optional() }) },
  responses: {
    '200': json('The price', TyrePriceSchema),
    '404': json(
      `No price for that size: "${MSG.customQuoteNeeded}" / "${MSG.callForQuote}"`,
      CustomQuoteNeededSchema,
    ),
  },
};

export const bookingPaths: RoutePaths = {
  // ------------------------------------------------------------------ time slots
  '/api/time-slots': {
    get: {
      summary: "A date's slots with their availability (booking dialog)",
      tags: ['Time slots'],
      requestParams: { query: dateQuery },
      responses: {
        '200': json('The four slots', z.array(PublicSlotSchema)),
        ...errors({ 400: MSG.invalidDateOrSlot }),
      },
    },
  },
  '/api/time-slots/availability': {
    get: {
      summary: "A date's slots with their availability (staff form; same answer as /api/time-slots)",
      tags: ['Time slots'],
      requestParams: { query: dateQuery },
      responses: {
        '200': json('The four slots', z.array(PublicSlotSchema)),
        ...errors({ 400: MSG.invalidDateOrSlot }),
      },
    },
  },
  '/api/time-slots/{date}': {
    get: {
      summary: 'The free slots of a date',
      tags: ['Time slots'],
      requestParams: { path: dateParam },
      responses: {
        '200': json('Free slots only', z.array(z.object({ slot: z.string() }))),
        ...errors({ 400: MSG.invalidDateOrSlot }),
      },
    },
  },

  // ------------------------------------------------------------------ pricing
  '/api/tyre-pricing/{tyreSize}': {
    get: {
      ...tyrePrice,
      requestParams: {
        ...tyrePrice.requestParams,
        path: z.object({ tyreSize: z.string().meta({ description: 'URL-encoded, e.g. 205%2F55R16' }) }),
      },
    },
  },
  '/api/tyre-pricing/{width}/{profileRim}': {
    get: {
      ...tyrePrice,
      summary: 'Retail price of one tyre of a size, written with its slash (/api/tyre-pricing/205/55R16)',
      requestParams: {
        ...tyrePrice.requestParams,
        path: z.object({ width: z.string(), profileRim: z.string() }),
      },
    },
  },
  '/api/pricing': {
    get: {
      summary: 'The price list (spec section 9)',
      tags: ['Pricing'],
      responses: { '200': json('Prices, GST rate and slots', PriceListSchema) },
    },
  },
  '/api/pricing/quote': {
    post: {
      summary: 'Price a service (no booking made)',
      tags: ['Pricing'],
      requestBody: jsonBody(priceQuoteSchema),
      responses: {
        '200': json(
          'The quote; callbackRequired with a message when the size needs a custom quote',
          PriceQuoteSchema,
        ),
        ...errors({ 400: VALIDATION }),
      },
    },
  },

  // ------------------------------------------------------------------ bookings
  '/api/bookings': {
    post: {
      summary: 'Book a slot (pay on site, or a staff booking)',
      tags: ['Bookings'],
      requestParams: { header: idempotencyHeader },
      requestBody: bookingBody,
      responses: {
        '201': json(
          'The confirmed booking (also the replayed answer of a repeated Idempotency-Key)',
          BookingConfirmationSchema,
        ),
        ...errors({
          400: [VALIDATION, MSG.invalidDateOrSlot, MSG.invalidSlot, HORIZON, IDEMPOTENCY_FORMAT],
          409: [MSG.slotJustBooked, MSG.slotNoLongerAvailable],
          422: IDEMPOTENCY_REUSED,
          ...UNAVAILABLE,
        }),
      },
    },
  },
  '/api/bookings/quote': {
    post: {
      summary: 'A prepaid quote: holds the slot while the customer pays',
      tags: ['Bookings'],
      requestParams: { header: idempotencyHeader },
      requestBody: bookingBody,
      responses: {
        '201': json('The quote with its booking token (the checkout capability)', PrepaidQuoteSchema),
        ...errors({
          400: [
            VALIDATION,
            MSG.invalidDateOrSlot,
            MSG.invalidSlot,
            HORIZON,
            MSG.prepaidNotAvailable,
            IDEMPOTENCY_FORMAT,
          ],
          409: [MSG.slotJustBooked, MSG.slotNoLongerAvailable],
          422: IDEMPOTENCY_REUSED,
          429: MSG.tooManyOpenHolds,
          ...UNAVAILABLE,
        }),
      },
    },
  },
  '/api/bookings/{jobId}/photos': {
    post: {
      summary: 'Add tyre photos to a booking (within an hour of booking)',
      tags: ['Bookings'],
      requestParams: { path: jobIdParam },
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
            MSG.photoCount(3),
            MSG.photoNone,
            MSG.photoKind,
            'Upload the photos as multipart/form-data in the "photos" field.',
            'The upload was malformed or interrupted. Please try again.',
            'The upload was interrupted. Please try again.',
          ],
          403: MSG.photoWindow,
          404: 'Booking not found',
        }),
      },
    },
  },
  '/api/booking-token/{token}': {
    get: {
      summary: 'A quote or booking by its token (checkout page)',
      tags: ['Bookings'],
      requestParams: { path: z.object({ token: z.string() }) },
      responses: {
        '200': json('The booking', BookingByTokenSchema),
        ...errors({ 404: 'This booking was not found or has expired.' }),
      },
    },
  },

  // ------------------------------------------------------------------ suburbs and addresses
  '/api/suburbs': {
    get: {
      summary: 'Landing-page suburbs by region',
      tags: ['Suburbs'],
      responses: { '200': json('Regions in display order', SuburbRegionsSchema) },
    },
  },
  '/api/suburbs/search': {
    get: {
      summary: 'Served suburbs matching a name or postcode prefix',
      tags: ['Suburbs'],
      requestParams: { query: z.object({ q: z.string().optional() }) },
      responses: { '200': json('Up to 10 suburbs', LocalityListSchema) },
    },
  },
  '/api/suburbs/{slug}': {
    get: {
      summary: 'A suburb landing page (mobile-tyres-{suburb})',
      tags: ['Suburbs'],
      requestParams: { path: z.object({ slug: z.string() }) },
      responses: {
        '200': json('The page copy', SuburbPageSchema),
        ...errors({ 404: MSG.serviceAreaNotFound }),
      },
    },
  },
  '/api/addresses/suggestions': {
    get: {
      summary: 'Address suggestions in served suburbs',
      tags: ['Suburbs'],
      requestParams: {
        query: z.object({
          q: z.string().optional().meta({ description: 'At least 3 characters, or the answer is empty.' }),
          sessionToken: z.string().optional(),
        }),
      },
      responses: { '200': json('Suggestions', AddressSuggestionsSchema) },
    },
  },

  // ------------------------------------------------------------------ dashboard (admin): time slot management
  '/api/dashboard/timeslots': {
    get: {
      summary: "A date's slots with their state and holder",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { query: dateQuery },
      responses: {
        '200': json('The four slots', z.array(AdminSlotSchema)),
        ...errors({ 400: MSG.invalidDateOrSlot, ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/timeslots/{date}': {
    get: {
      summary: "A date's slots with their state and holder",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: dateParam },
      responses: {
        '200': json('The four slots', z.array(AdminSlotSchema)),
        ...errors({ 400: MSG.invalidDateOrSlot, ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/timeslots/{date}/{slot}/block': {
    patch: {
      summary: 'Block a slot',
      description:
        'Stops new bookings and moves into the slot, whatever its capacity. Jobs already in it are kept and listed in keptBookings.',
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: slotParams },
      requestBody: jsonBody(blockSlotSchema),
      responses: {
        '200': json('The slot now, with the jobs the block keeps', BlockedSlotSchema),
        ...errors({
          400: [MSG.invalidDateOrSlot, MSG.blockReason, 'The reason is too long (500 characters at most)'],
          ...ADMIN_ERRORS,
        }),
      },
    },
  },
  '/api/dashboard/timeslots/{date}/{slot}/unblock': {
    patch: {
      summary: 'Unblock a slot',
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: slotParams },
      responses: {
        '200': json('The slot now', AdminSlotSchema),
        ...errors({ 400: MSG.invalidDateOrSlot, ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/jobs/{jobId}/photos/{photoId}': {
    get: {
      summary: "A job's photo (admins any job; technicians their own)",
      tags: ['Dashboard'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: z.object({ jobId: z.string(), photoId: z.string() }) },
      responses: {
        '200': {
          description: 'The image bytes',
          content: {
            'image/jpeg': { schema: z.string().meta({ format: 'binary' }) },
            'image/png': { schema: z.string().meta({ format: 'binary' }) },
            'image/webp': { schema: z.string().meta({ format: 'binary' }) },
          },
        },
        ...errors({ ...STAFF_ERRORS, 404: MSG.photoNotFound }),
      },
    },
  },

  // ------------------------------------------------------------------ internal (never routed by the gateway)
  '/internal/reservations/{jobId}': {
    put: {
      summary: "Move a job's slot reservation (jobs service)",
      tags: ['Internal'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      requestBody: jsonBody(moveReservationSchema),
      responses: {
        '200': json('The reservation now', MovedReservationSchema),
        ...errors({
          400: [MSG.invalidDateOrSlot, HORIZON],
          401: STAFF_ERRORS[401],
          404: 'No slot reservation for this job',
          409: MSG.slotNoLongerAvailable,
        }),
      },
    },
    delete: {
      summary: "Release a job's slot reservation (job cancelled)",
      tags: ['Internal'],
      security: [{ gatewayIdentity: [] }],
      requestParams: { path: jobIdParam },
      responses: {
        '204': { description: 'Released (or there was none)' },
        ...errors({ 401: STAFF_ERRORS[401] }),
      },
    },
  },
  '/internal/booking-token/{token}': {
    get: {
      summary: 'A quote by its token, with its ids (billing checkout)',
      tags: ['Internal'],
      requestParams: { path: z.object({ token: z.string() }) },
      responses: {
        '200': json('The quote', InternalBookingByTokenSchema),
        ...errors({ 404: 'Booking not found or expired' }),
      },
    },
  },
  '/internal/card-surcharge-rate': {
    get: {
      summary: 'The card surcharge rate in force now (billing, before it creates a payment intent)',
      tags: ['Internal'],
      responses: {
        '200': json(
          'The rate',
          z
            .object({
              cardSurchargeRate: z.string().meta({ example: '1.70', description: 'Percent, 2 decimals.' }),
              label: z.string().meta({ example: '1.7%', description: 'As the business writes it.' }),
            })
            .meta({ id: 'CardSurchargeRate' }),
        ),
      },
    },
  },
  ...managePaths, // "manage my booking" (issue 18): manage-openapi.ts
  ...erasurePaths, // erasing a customer on request (issue 18, privacy): erasure-openapi.ts
  ...calendarPaths, // roster, leave, calendar blocks, public holidays, capacity (issue 19): calendar-openapi.ts
  ...priceListPaths, // price list administration (issue 19): price-list-openapi.ts
};

export const bookingOpenApi = (): OpenApiDocument =>
  serviceOpenApiDocument({
    service: 'booking',
    description:
      'Time slots, prices, bookings and prepaid quotes, booking photos, suburbs and addresses. Public routes are reached ' +
      'through the gateway; /api/dashboard/* needs a signed-in staff member; /internal/* is service-to-service. Any ' +
      'route may also answer 413/415 (a body the parser refused), 400 with code malformed_json, or 503 while the ' +
      'database is unavailable, with the same error body.',
    paths: bookingPaths,
  });
