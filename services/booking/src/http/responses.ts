/** Answer shapes: what the routes send for bookings, tokens and photos. */
import type { Response } from 'express';
import { toMoney } from '@tyres/events';
import {
  dateFromDb,
  DEFAULT_CARD_SURCHARGE_BP,
  surchargeRateToWire,
  TIME_SLOT_LABELS,
  type TimeSlot,
} from '@tyres/kernel';
import { z } from 'zod';
import type { Replay } from '../app/bookings';
import type { Booking as BookingModel } from '../db/generated/client';
import { customerOf, vehicleOf, type PhotoRow } from '../events/builders';

/** A use case's answer (201 unless told), or the stored answer of a replayed Idempotency-Key. */
export function send(res: Response, result: object | Replay, status = 201) {
  if ('replay' in result) {
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(result.statusCode).json(result.body);
    return;
  }
  res.status(status).json(result);
}

/** "Booking by token" (spec section 3) plus its state. */
export function tokenView(b: BookingModel) {
  return {
    amount: toMoney(b.total),
    currency: 'AUD' as const,
    // The card surcharge rate the quote was given at ("1.70"); quotes from before it was recorded were at 1.70%.
    cardSurchargeRate: b.cardSurchargeRate
      ? b.cardSurchargeRate.toFixed(2)
      : surchargeRateToWire(DEFAULT_CARD_SURCHARGE_BP),
    status: b.status,
    paymentStatus: b.paymentStatus,
    expiresAt: b.status === 'quoted' ? (b.expiresAt?.toISOString() ?? null) : null,
    serviceType: b.serviceType,
    customer: customerOf(b),
    job: {
      scheduledDate: dateFromDb(b.scheduledDate),
      timeSlot: b.timeSlot,
      address: b.address,
      suburb: b.suburb,
      postcode: b.postcode,
      tyreSize: b.tyreSize,
      tyreQuantity: b.tyreQuantity,
    },
    vehicle: vehicleOf(b),
  };
}

export const photoView = (p: PhotoRow) => ({
  id: p.id,
  jobId: p.jobId,
  type: p.type,
  filename: p.filename,
  originalName: p.originalName,
  mimeType: p.mimeType,
  size: p.size,
  uploadedAt: p.uploadedAt.toISOString(),
});

// ---------------------------------------------------------------------------------------------------------------
// The same answers as zod schemas, for the OpenAPI document (openapi.ts) and the contract check in the tests.

/** Money as it travels: a decimal string with two places ("139.00"). */
export const Money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ id: 'Money', description: 'Dollars as a decimal string with two places, e.g. "139.00".' });
const TimeSlotLabel = z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]]).meta({ id: 'TimeSlot' });
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const PublicSlotSchema = z
  .object({ slot: TimeSlotLabel, isAvailable: z.boolean(), blockedReason: z.string().nullable() })
  .meta({ id: 'PublicSlot' });

export const AdminSlotSchema = z
  .object({
    id: z.string().meta({ description: 'Stable per date and slot, e.g. "2030-06-03_0800".' }),
    date: IsoDate,
    slot: TimeSlotLabel,
    isAvailable: z.boolean(),
    blockedReason: z.string().nullable(),
    isBlocked: z.boolean(),
    state: z
      .enum([
        'weekend',
        'time-passed',
        'not-open',
        'holiday',
        'blocked',
        'no-technician',
        'booked',
        'available',
        'held',
      ])
      .meta({
        description:
          'holiday: a WA public holiday not opened by an admin; no-technician: nobody rostered that weekday ("No technician rostered") or every rostered technician on leave ("No technician available (leave)"); booked/held: the slot is full (jobs = capacity).',
      }),
    booking: z
      .object({ jobId: z.string(), jobNumber: z.string(), kind: z.enum(['hold', 'booking']) })
      .nullable()
      .meta({ description: 'The first job holding the slot.' }),
    bookings: z
      .array(z.object({ jobId: z.string(), jobNumber: z.string(), kind: z.enum(['hold', 'booking']) }))
      .meta({ description: 'Every job holding the slot (up to its capacity).' }),
    capacity: z.number().int().meta({
      description:
        'Jobs the slot holds that day: technicians rostered minus leave (0 with nobody rostered that weekday; 1 only when the business has no active technician at all).',
    }),
  })
  .meta({ id: 'AdminSlot' });

/** A live job a new block keeps (issue 19 audit): the admin contacts its customer. */
export const KeptBookingSchema = z
  .object({
    jobId: z.string(),
    jobNumber: z.string().meta({ description: 'The job reference, e.g. JOB-000123.' }),
    date: z.string().meta({ description: 'YYYY-MM-DD (Perth calendar date).' }),
    slot: z.string(),
    kind: z.enum(['hold', 'booking']).meta({ description: 'hold: a prepaid quote waiting for its payment.' }),
  })
  .meta({ id: 'KeptBooking' });

export const keptBookingsField = z.array(KeptBookingSchema).meta({
  description:
    'The jobs (bookings and unexpired prepaid holds) already in the blocked time: kept, not moved or cancelled; listed by date and slot so the admin can contact those customers.',
});

/** A slot block's answer: the slot now, and the jobs the block keeps. */
export const BlockedSlotSchema = AdminSlotSchema.extend({ keptBookings: keptBookingsField }).meta({
  id: 'BlockedSlot',
});

export const TyrePriceSchema = z
  .object({ price: Money, size: z.string(), brand: z.string(), model: z.string() })
  .meta({ id: 'TyrePrice' });

export const CustomQuoteNeededSchema = z
  .object({ error: z.string(), message: z.string(), callbackRequired: z.literal(true) })
  .meta({ id: 'CustomQuoteNeeded' });

export const PriceListSchema = z
  .object({
    calloutFee: Money,
    punctureRepair: Money,
    prepaidDiscount: Money,
    fittingPerTyre: Money,
    balancingPerTyre: Money,
    cardSurchargeRate: z.string().meta({
      example: '1.70',
      description: 'The card surcharge in force now, percent with 2 decimals (shown as "1.7%").',
    }),
    batteryService: Money,
    newTyresBasePrice: Money,
    gstPercent: z.number(),
    currency: z.literal('AUD'),
    responseTime: z.string(),
    timeSlots: z.array(z.object({ slot: TimeSlotLabel, start: z.string() })),
  })
  .meta({ id: 'PriceList' });

export const PriceQuoteSchema = z
  .object({
    items: z.array(z.object({ description: z.string(), price: Money })),
    subtotal: Money,
    discount: Money,
    gst: Money,
    total: Money,
    callbackRequired: z.boolean(),
    message: z.string().optional(),
  })
  .meta({ id: 'PriceQuote' });

export const BookingConfirmationSchema = z
  .object({
    jobId: z.string(),
    jobNumber: z.string(),
    scheduledDate: IsoDate,
    timeSlot: TimeSlotLabel,
    paymentMethod: z.enum(['onsite', 'prepaid']),
    paymentStatus: z.string(),
    customerValue: Money,
  })
  .meta({ id: 'BookingConfirmation' });

export const PrepaidQuoteSchema = z
  .object({
    bookingToken: z.string(),
    amount: Money,
    currency: z.literal('AUD'),
    scheduledDate: IsoDate,
    timeSlot: TimeSlotLabel,
    expiresAt: z.string().meta({ description: 'When the slot hold ends if unpaid (ISO 8601).' }),
    quoteId: z.string(),
    jobId: z.string(),
    jobNumber: z.string(),
    cardSurchargeRate: z.string().meta({
      example: '1.70',
      description:
        'The card surcharge rate (percent, 2 decimals) this quote is paid at: the rate in force when it was quoted.',
    }),
  })
  .meta({ id: 'PrepaidQuote' });

export const BookingByTokenSchema = z
  .object({
    amount: Money,
    currency: z.literal('AUD'),
    cardSurchargeRate: z.string().meta({
      example: '1.70',
      description:
        'The card surcharge rate (percent, 2 decimals) this quote is paid at: the rate in force when it was quoted.',
    }),
    status: z.enum(['quoted', 'confirmed', 'expired', 'conflict']),
    paymentStatus: z.string(),
    expiresAt: z.string().nullable(),
    serviceType: z.string(),
    customer: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
    job: z.object({
      scheduledDate: IsoDate,
      timeSlot: z.string(),
      address: z.string(),
      suburb: z.string(),
      postcode: z.string(),
      tyreSize: z.string().nullable(),
      tyreQuantity: z.number().int().nullable(),
    }),
    vehicle: z.object({
      make: z.string(),
      model: z.string(),
      year: z.number().int(),
      color: z.string().nullable(),
      registration: z.string(),
    }),
  })
  .meta({ id: 'BookingByToken' });

export const InternalBookingByTokenSchema = BookingByTokenSchema.extend({
  quoteId: z.string(),
  jobId: z.string(),
  jobNumber: z.string(),
  bookingToken: z.string(),
}).meta({ id: 'InternalBookingByToken' });

export const JobPhotoSchema = z
  .object({
    id: z.string(),
    jobId: z.string(),
    type: z.string(),
    filename: z.string(),
    originalName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    uploadedAt: z.string(),
  })
  .meta({ id: 'JobPhoto' });

const LocalitySchema = z
  .object({ name: z.string(), postcode: z.string(), region: z.string() })
  .meta({ id: 'Locality' });
export const LocalityListSchema = z.array(LocalitySchema);

export const SuburbRegionsSchema = z.array(
  z
    .object({
      region: z.string(),
      suburbs: z.array(
        z.object({ suburb: z.string(), postcode: z.string(), region: z.string(), slug: z.string() }),
      ),
    })
    .meta({ id: 'SuburbRegion' }),
);

export const SuburbPageSchema = z
  .object({
    suburb: z.string(),
    postcode: z.string(),
    region: z.string(),
    slug: z.string(),
    metaTitle: z.string(),
    metaDescription: z.string(),
    content: z.string(),
    responseTime: z.string(),
  })
  .meta({ id: 'SuburbPage' });

export const AddressSuggestionsSchema = z.array(
  z
    .object({ streetAddress: z.string(), fullAddress: z.string(), suburb: z.string(), postcode: z.string() })
    .meta({ id: 'AddressSuggestion' }),
);

export const MovedReservationSchema = z
  .object({ jobId: z.string(), scheduledDate: IsoDate, timeSlot: TimeSlotLabel })
  .meta({ id: 'MovedReservation' });
