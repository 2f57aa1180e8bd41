/**
 * The booking service's HTTP routes. Public paths are routed to us by the gateway
 * (services/gateway/src/http/routing.ts); /internal/* is service-to-service only. The route list with shapes is in
 * services/booking/README.md.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import express, { type Express, type Request, type Response } from 'express';
import { toMoney } from '@tyres/events';
import {
  customerBookingSchema,
  isPastDate,
  normalizeTyreSize,
  priceQuoteSchema,
  staffBookingSchema,
  TIME_SLOTS,
  toBookingDate,
  type TimeSlot,
  type BookingRequest,
  formatSurchargeRate,
  surchargeRateToWire,
} from '@tyres/kernel';
import {
  badRequest,
  HttpError,
  mountOpenApi,
  notFound,
  parseOr400,
  requestFingerprint,
  requireAdmin,
  requireStaff,
  responseContractCheck,
  type IdempotencyRequest,
} from '@tyres/service-kit';
import type { AddressProvider } from '../addresses/provider';
import type { BookingUseCases } from '../app/bookings';
import { photoCountError } from '../app/errors';
import type { ManageBooking } from '../app/manage';
import type { Photos } from '../app/photos';
import type { Reservations } from '../app/reservations';
import type { Pricing } from '../app/pricing';
import type { SlotAdmin } from '../app/slot-admin';
import type { SlotLists } from '../app/slot-lists';
import type { PhotoChunks } from '../db/photo-chunks';
import type { Suburbs } from '../db/suburbs';
import {
  directBookingPayment,
  normalizeBooking,
  type BookingChannel,
  type NormalizedBooking,
} from '../domain/booking-input';
import {
  ADDRESS_MAX_SUGGESTIONS,
  ADDRESS_MIN_CHARS,
  GST_PERCENT,
  PHOTO_TYPES,
  PRICES,
  PRICING_TIME_SLOTS,
  RESPONSE_TIME,
} from '../domain/constants';
import { MSG } from '../domain/messages';
import { quoteBody } from '../domain/pricing';
import { requestedSlugName } from '../domain/suburbs';
import { looksLikeToken } from '../domain/tokens';
import { manageRoutes } from './manage';
import { erasureRoutes } from './erasure-routes';
import { calendarRoutes } from './calendar-routes';
import { priceListRoutes } from './price-list-routes';
import type { PriceList } from '../app/price-list';
import type { BusinessCalendar } from '../app/calendar';
import type { CustomerErasure } from '../app/erasure';
import { finishBody, receivePhotoUpload, type UploadGuard } from './multipart';
import { bookingOpenApi, bookingPaths } from './openapi';
import { photoView, send, tokenView } from './responses';
import { blockSlotSchema, moveReservationSchema } from './schemas';

export interface RouteDeps {
  clock: () => Date;
  slotLists: SlotLists;
  pricing: Pricing;
  bookings: BookingUseCases;
  reservations: Reservations;
  slotAdmin: SlotAdmin;
  photos: Photos;
  manage: ManageBooking;
  /** Photo bytes, streamed in and out in chunks. */
  photoChunks: PhotoChunks;
  /** Caps on an upload request's body (config PHOTO_UPLOAD_*). */
  uploads: UploadGuard;
  suburbs: Suburbs;
  addresses: AddressProvider;
  /** Issue 18 (privacy): erasing a customer on request (erasure-routes.ts). */
  erasure: CustomerErasure;
  /** Issue 19: roster, leave, calendar blocks, public holidays (calendar-routes.ts). */
  calendar?: BusinessCalendar;
  /** Issue 19: price list administration (price-list-routes.ts). */
  priceList?: PriceList;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** A date query/param for slot lists: a Perth calendar date, today or later. */
function listDate(value: unknown, now: Date): string {
  const date = toBookingDate(one(value));
  if (!date || isPastDate(date, now)) throw badRequest(MSG.invalidDateOrSlot, undefined, 'invalid_date');
  return date;
}

/**
 * The request's Idempotency-Key, if it sent one: any 1-200 printable characters (what booking has always taken).
 * The fingerprint is the normalised request and the staff caller: the same booking sent again replays, another
 * request under the same key is refused (app/bookings.ts).
 */
function idempotencyFrom(req: Request, scope: string, request: unknown): IdempotencyRequest | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(key))
    throw badRequest(
      'Idempotency-Key must be 1-200 printable characters',
      undefined,
      'invalid_idempotency_key',
    );
  return { scope, key, fingerprint: requestFingerprint(request) };
}

/**
 * Whose open payment holds a quote counts against: the client address the gateway puts in x-client-address (it
 * strips any value a client sends). Staff signed in are not capped (they book for customers on the phone); a call
 * without the header (internal, tests) is not either. Anything that is not a plausible address is ignored.
 */
function holdingClient(req: Request): string | undefined {
  if (req.identity) return undefined;
  const address = req.get('x-client-address')?.trim();
  return address && /^[\x21-\x7e]{1,100}$/.test(address) ? address : undefined;
}

/**
 * A booking request parsed with its form's rules and messages. The dashboard's New Booking form is a request with a
 * staff identity that carries vehicle.color (a field only that form has): it gets the staff form's rules and
 * channel 'staff'. A signed-in staff member using the public dialog is treated as a customer.
 */
function bookingRequest(req: Request): { parsed: BookingRequest; channel: BookingChannel } {
  const vehicle = (req.body as { vehicle?: unknown } | undefined)?.vehicle;
  const staff =
    Boolean(req.identity) && typeof vehicle === 'object' && vehicle !== null && 'color' in vehicle;
  const parsed = parseOr400(staff ? staffBookingSchema : customerBookingSchema, req.body ?? {});
  return { parsed, channel: staff ? 'staff' : 'online' };
}

export function bookingRoutes(deps: RouteDeps) {
  const { clock } = deps;

  return (app: Express) => {
    // The document first: every answer below is checked against it in the tests (OPENAPI_RESPONSE_CHECK=strict).
    app.use(responseContractCheck(bookingPaths));
    mountOpenApi(app, bookingOpenApi());

    // ---------------------------------------------------------------- time slots (public)
    const states = (date: string) => deps.slotLists.forDate(date);

    // The booking dialog's list and the staff form's availability: the same answer.
    const slotList = async (req: Request, res: Response) => {
      const date = listDate(req.query.date, clock());
      res.json(
        (await states(date)).map((s) => ({
          slot: s.slot,
          isAvailable: s.isAvailable,
          blockedReason: s.blockedReason,
        })),
      );
    };
    app.get('/api/time-slots', slotList);
    app.get('/api/time-slots/availability', slotList);
    app.get('/api/time-slots/:date', async (req, res) => {
      const date = listDate(req.params.date, clock());
      res.json((await states(date)).filter((s) => s.isAvailable).map((s) => ({ slot: s.slot })));
    });

    // ---------------------------------------------------------------- pricing (public)
    app.get('/api/tyre-pricing/*tyreSize', async (req, res) => {
      const raw = ([] as string[])
        .concat((req.params as { tyreSize?: string | string[] }).tyreSize ?? [])
        .join('/');
      const size = normalizeTyreSize(raw);
      const brand = typeof req.query.brand === 'string' ? req.query.brand : undefined;
      const price = size ? await deps.pricing.tyrePrice(size, brand) : undefined;
      if (!price) {
        res
          .status(404)
          .json({ error: MSG.customQuoteNeeded, message: MSG.callForQuote, callbackRequired: true });
        return;
      }
      res.json({ price: toMoney(price.cents), size: price.size, brand: price.brand, model: price.model });
    });
    app.get('/api/pricing', async (_req, res) => {
      // The fees in force now (issue 19 price list); battery service and the "from" price are the kernel's.
      const fees = await deps.pricing.fees();
      res.json({
        calloutFee: toMoney(fees.calloutFee),
        punctureRepair: toMoney(fees.punctureRepair),
        prepaidDiscount: toMoney(fees.prepaidDiscount),
        fittingPerTyre: toMoney(fees.fittingPerTyre),
        balancingPerTyre: toMoney(fees.balancingPerTyre),
        cardSurchargeRate: surchargeRateToWire(fees.cardSurchargeRate),
        batteryService: toMoney(PRICES.batteryService),
        newTyresBasePrice: toMoney(PRICES.newTyresBasePrice),
        gstPercent: Number(GST_PERCENT),
        currency: 'AUD',
        responseTime: RESPONSE_TIME,
        timeSlots: PRICING_TIME_SLOTS,
      });
    });
    app.post('/api/pricing/quote', async (req, res) => {
      const q = parseOr400(priceQuoteSchema, req.body ?? {});
      const quote = await deps.pricing.quote(q);
      res.json(quoteBody(quote));
    });

    // ---------------------------------------------------------------- bookings (public; staff form with identity)
    app.post('/api/bookings', async (req, res) => {
      const { parsed, channel } = bookingRequest(req);
      const input = normalizeBooking(
        parsed,
        channel,
        directBookingPayment(channel, parsed.job.paymentMethod),
      );
      send(
        res,
        await deps.bookings.book(
          input,
          idempotencyFrom(req, 'bookings', { input, staff: req.identity?.id ?? null }),
        ),
      );
    });
    app.post('/api/bookings/quote', async (req, res) => {
      const { parsed, channel } = bookingRequest(req);
      const input: NormalizedBooking = normalizeBooking(parsed, channel, 'prepaid');
      send(
        res,
        await deps.bookings.quote(
          input,
          idempotencyFrom(req, 'quotes', { input, staff: req.identity?.id ?? null }),
          holdingClient(req),
        ),
      );
    });
    app.post('/api/bookings/:jobId/photos', async (req, res) => {
      let received: string[] = [];
      try {
        const jobId = req.params.jobId;
        if (!isUuid(jobId)) throw notFound('Booking not found');
        const target = await deps.photos.uploadTarget(jobId);
        if (target.remaining <= 0) throw photoCountError(target.max);
        const upload = await receivePhotoUpload(req, target, deps.photoChunks, deps.uploads);
        received = upload.files.map((f) => f.id);
        const type = (upload.fields.type ?? 'tyre-condition').trim() || 'tyre-condition';
        if (!(PHOTO_TYPES as readonly string[]).includes(type))
          throw badRequest(MSG.photoKind, undefined, 'invalid_photo_type');
        if (upload.files.length === 0) throw badRequest(MSG.photoNone, undefined, 'no_files');
        const stored = await deps.photos.store(target, type, upload.files);
        received = [];
        res.status(201).json({ photos: stored.map(photoView) });
      } catch (err) {
        await Promise.all([
          // Left behind if the database is down now: the hold sweeper purges abandoned uploads.
          deps.photoChunks.discard(received).catch(() => undefined),
          // Whatever the answer, it goes out once the body has been read (multipart.ts).
          finishBody(req, res, deps.uploads),
        ]);
        throw err;
      }
    });

    // ---------------------------------------------------------------- booking tokens (public checkout)
    app.get('/api/booking-token/:token', async (req, res) => {
      const token = req.params.token;
      const b = looksLikeToken(token) ? await deps.bookings.byToken(token) : undefined;
      if (!b)
        throw new HttpError(404, 'This booking was not found or has expired.', 'not_found', undefined, {
          error: MSG.bookingNotFound,
        });
      res.json(tokenView(b));
    });

    manageRoutes(deps)(app); // "manage my booking" (public, by the link's token): manage.ts
    calendarRoutes(deps)(app); // the business calendar (admin, issue 19): calendar-routes.ts
    priceListRoutes(deps)(app); // price list administration (admin, issue 19): price-list-routes.ts
    erasureRoutes(deps)(app); // erasing a customer on request (admin, issue 18 privacy): erasure-routes.ts

    // ---------------------------------------------------------------- suburbs & addresses (public)
    app.get('/api/suburbs', async (_req, res) => {
      res.json(await deps.suburbs.landingList());
    });
    app.get('/api/suburbs/search', async (req, res) => {
      const q = typeof req.query.q === 'string' ? req.query.q : '';
      res.json(q.trim() ? await deps.suburbs.search(q) : []);
    });
    app.get('/api/suburbs/:slug', async (req, res) => {
      const name = requestedSlugName(req.params.slug);
      const page = name ? await deps.suburbs.page(name) : undefined;
      if (!page)
        throw new HttpError(404, MSG.serviceAreaNotFound, 'not_found', undefined, {
          error: MSG.serviceAreaNotFound,
        });
      res.json(page);
    });
    app.get('/api/addresses/suggestions', async (req, res) => {
      const q = typeof req.query.q === 'string' ? req.query.q.slice(0, 200) : '';
      if (q.trim().length < ADDRESS_MIN_CHARS) {
        res.json([]);
        return;
      }
      const sessionToken =
        typeof req.query.sessionToken === 'string' ? req.query.sessionToken.slice(0, 100) : undefined;
      res.setHeader('Cache-Control', 'private, max-age=60');
      res.json(
        await deps.addresses.suggest(q, {
          limit: ADDRESS_MAX_SUGGESTIONS,
          ...(sessionToken ? { sessionToken } : {}),
        }),
      );
    });

    // ---------------------------------------------------------------- dashboard: time slot management (admin)
    app.get('/api/dashboard/timeslots', requireAdmin, async (req, res) => {
      res.json(await deps.slotAdmin.list(listDate(req.query.date, clock())));
    });
    app.get('/api/dashboard/timeslots/:date', requireAdmin, async (req, res) => {
      res.json(await deps.slotAdmin.list(listDate(req.params.date, clock())));
    });
    app.patch('/api/dashboard/timeslots/:date/:slot/block', requireAdmin, async (req, res) => {
      const { date, slot } = slotParams(String(req.params.date), String(req.params.slot), clock());
      const { reason } = parseOr400(blockSlotSchema, req.body ?? {});
      res.json(await deps.slotAdmin.block(date, slot, reason, req.identity!));
    });
    app.patch('/api/dashboard/timeslots/:date/:slot/unblock', requireAdmin, async (req, res) => {
      const { date, slot } = slotParams(String(req.params.date), String(req.params.slot), clock());
      res.json(await deps.slotAdmin.unblock(date, slot, req.identity!));
    });

    // ---------------------------------------------------------------- dashboard: photo viewer (staff, scoped)
    app.get('/api/dashboard/jobs/:jobId/photos/:photoId', requireStaff, async (req, res) => {
      const { jobId, photoId } = req.params;
      const photo =
        isUuid(jobId) && isUuid(photoId)
          ? await deps.photos.forStaff(jobId, photoId, req.identity!)
          : undefined;
      if (!photo) throw notFound(MSG.photoNotFound);
      const bytes = await deps.photoChunks.open(photo.id);
      res.setHeader('Content-Type', photo.mimeType);
      res.setHeader('Content-Length', String(photo.size));
      res.setHeader('Content-Disposition', `inline; filename="${photo.filename}"`);
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
      try {
        await pipeline(Readable.from(bytes), res);
      } catch (err) {
        // The viewer went away mid-photo (nothing to answer), or the database failed after the headers went out:
        // the cut-short response is all the client can be told.
        if (!res.headersSent) throw err;
        res.destroy();
      }
    });

    // ---------------------------------------------------------------- internal: jobs service
    const internal = express.Router();
    internal.put('/reservations/:jobId', requireStaff, async (req, res) => {
      const jobId = req.params.jobId;
      if (!isUuid(jobId)) throw notFound('No slot reservation for this job');
      const body = parseOr400(moveReservationSchema, req.body ?? {});
      res.json(await deps.reservations.move(jobId, body.scheduledDate, body.timeSlot));
    });
    internal.delete('/reservations/:jobId', requireStaff, async (req, res) => {
      if (isUuid(req.params.jobId)) await deps.reservations.release(req.params.jobId, 'cancelled');
      res.status(204).end();
    });
    // Billing: the capability is the token itself (256 random bits); there is no staff identity on a customer's
    // checkout, and /internal is never routed by the gateway.
    internal.get('/booking-token/:token', async (req, res) => {
      const token = req.params.token;
      const b = looksLikeToken(token) ? await deps.bookings.byToken(token) : undefined;
      if (!b) throw notFound('Booking not found or expired');
      res.json({
        quoteId: b.id,
        jobId: b.jobId,
        jobNumber: b.jobNumber,
        bookingToken: token,
        ...tokenView(b),
      });
    });
    // Billing: the card surcharge rate in force now, for a payment intent it is about to create (pay-an-invoice).
    internal.get('/card-surcharge-rate', async (_req, res) => {
      const fees = await deps.pricing.fees();
      res.json({
        cardSurchargeRate: surchargeRateToWire(fees.cardSurchargeRate),
        label: formatSurchargeRate(fees.cardSurchargeRate),
      });
    });
    app.use('/internal', internal);
  };
}

function slotParams(
  dateParam: string | undefined,
  slotParam: string | undefined,
  now: Date,
): { date: string; slot: TimeSlot } {
  const date = toBookingDate(dateParam);
  const label = (slotParam ?? '').replace(/\+/g, ' ');
  const slot = TIME_SLOTS.find((s) => s.slot === label)?.slot;
  if (!date || !slot || isPastDate(date, now))
    throw badRequest(MSG.invalidDateOrSlot, undefined, 'invalid_date_or_slot');
  return { date, slot };
}
