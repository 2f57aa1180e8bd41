/** Issue 19 item 5: the price list's admin routes (price-list-routes.ts) in booking's OpenAPI document. */
import { errors, json, jsonBody, STAFF_ERRORS, type RoutePaths } from '@tyres/service-kit';
import { z } from 'zod';
import {
  cancelChangeSchema,
  feeScheduleSchema,
  PRICE_MSG,
  scheduledLaterMessage,
  tyreChangeSchema,
  tyreCreateSchema,
} from '../domain/price-list';

const ADMIN_ERRORS = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const security = [{ gatewayIdentity: [] }];
const tags = ['Dashboard'];
/** The 409 when a later version is already scheduled: {date} is its effectiveFrom, "1 Jan 2027 (Perth)". */
const LATER = '{date}';
const VALIDATION = 'The first problem with the request (details lists each field)';
const Money = z.string().meta({ example: '89.80', description: 'AUD, GST inclusive, 2 decimals.' });
const Instant = z.string().meta({ description: 'ISO 8601 instant (UTC).' });

const Fees = z
  .object({
    calloutFee: Money,
    punctureRepair: Money,
    fittingPerTyre: Money,
    balancingPerTyre: Money,
    prepaidDiscount: Money,
    cardSurchargeRate: z.string().meta({
      example: '1.70',
      description:
        'Card surcharge, percent with 2 decimals (0.00-5.00): charged on card payments at the rate in force when the amount was shown to the customer.',
    }),
  })
  .meta({ id: 'PriceListFees' });
const FeeVersion = z
  .object({
    id: z.string(),
    effectiveFrom: Instant,
    fees: Fees,
    reason: z.string(),
    createdBy: z.string(),
    createdAt: Instant,
  })
  .meta({ id: 'FeeScheduleVersion' });
const TyreVersion = z
  .object({
    id: z.string(),
    effectiveFrom: Instant,
    price: Money,
    inStock: z.boolean(),
    reason: z.string(),
    createdBy: z.string(),
    createdAt: Instant,
  })
  .meta({ id: 'TyrePriceVersion' });
const CatalogueTyre = z
  .object({
    id: z.string(),
    size: z.string().meta({ example: '205/55R16' }),
    brand: z.string(),
    model: z.string(),
    price: Money.meta({ description: 'Per tyre, in force now.' }),
    inStock: z.boolean().meta({ description: 'Offered to quotes now.' }),
    since: Instant.nullable().meta({ description: 'When the state in force took effect (null: as seeded).' }),
    scheduled: z.array(TyreVersion).meta({ description: 'Future changes, soonest first.' }),
  })
  .meta({ id: 'CatalogueTyre' });
const PriceListView = z
  .object({
    at: Instant,
    fees: FeeVersion,
    scheduledFees: z.array(FeeVersion).meta({ description: 'Future fee schedules, soonest first.' }),
    tyres: z.array(CatalogueTyre),
    fixed: z
      .array(z.object({ key: z.string(), label: z.string(), value: z.string(), note: z.string() }))
      .meta({
        description: 'Prices not on the editable list (battery service) and why.',
      }),
    labels: z.record(z.string(), z.string()),
  })
  .meta({ id: 'PriceListAdminView' });
const AuditEntry = z
  .object({
    id: z.string(),
    at: Instant,
    actor: z.string(),
    action: z.enum([
      'fees.scheduled',
      'fees.cancelled',
      'tyre.created',
      'tyre.changed',
      'tyre.change-cancelled',
    ]),
    subjectType: z.enum(['fees', 'tyre']),
    subjectId: z.string(),
    effectiveFrom: Instant.nullable(),
    reason: z.string(),
    before: z.unknown(),
    after: z.unknown(),
  })
  .meta({ id: 'PriceListAuditEntry' });

const MONEY = [
  `{field} ${PRICE_MSG.money}`,
  `{field} ${PRICE_MSG.places}`,
  `{field} ${PRICE_MSG.negative}`,
  `{field} ${PRICE_MSG.tooLarge}`,
];
const EFFECTIVE = [PRICE_MSG.effectiveFrom, PRICE_MSG.effectiveFromPast, PRICE_MSG.effectiveFromFar];

export const priceListPaths: RoutePaths = {
  '/api/dashboard/prices': {
    get: {
      summary: 'The price list in force now (fees, tyre catalogue) and the scheduled future changes',
      tags,
      security,
      responses: { '200': json('The price list', PriceListView), ...errors({ ...ADMIN_ERRORS }) },
    },
  },
  '/api/dashboard/prices/fees': {
    put: {
      summary: 'A new fee schedule (every fee) from effectiveFrom (now when omitted), with a reason',
      description:
        'effectiveFrom: a Perth date (from Perth midnight) or an ISO date-time with an offset, now or later. Quotes made from then use it; existing bookings keep the price they were quoted.',
      tags,
      security,
      requestBody: jsonBody(feeScheduleSchema),
      responses: {
        '201': json('The scheduled version', FeeVersion),
        ...errors({
          400: [
            VALIDATION,
            ...MONEY,
            PRICE_MSG.reason,
            PRICE_MSG.discountAboveCallout,
            PRICE_MSG.rate,
            ...EFFECTIVE,
          ],
          ...ADMIN_ERRORS,
          409: [PRICE_MSG.sameAsInForce, scheduledLaterMessage('fees', LATER)],
        }),
      },
    },
  },
  '/api/dashboard/prices/tyres': {
    post: {
      summary: 'Add a tyre to the catalogue (size, brand, model, price, in stock) from effectiveFrom',
      tags,
      security,
      requestBody: jsonBody(tyreCreateSchema),
      responses: {
        '201': json('The tyre', CatalogueTyre),
        ...errors({
          400: [VALIDATION, PRICE_MSG.size, ...MONEY, PRICE_MSG.zeroTyre, PRICE_MSG.reason, ...EFFECTIVE],
          ...ADMIN_ERRORS,
          409: PRICE_MSG.tyreExists,
        }),
      },
    },
  },
  '/api/dashboard/prices/tyres/{id}': {
    put: {
      summary: "Change a tyre's price and/or stock from effectiveFrom, with a reason",
      tags,
      security,
      requestParams: { path: z.object({ id: z.string() }) },
      requestBody: jsonBody(tyreChangeSchema),
      responses: {
        '200': json('The tyre', CatalogueTyre),
        ...errors({
          400: [
            VALIDATION,
            PRICE_MSG.nothingToChange,
            ...MONEY,
            PRICE_MSG.zeroTyre,
            PRICE_MSG.reason,
            ...EFFECTIVE,
          ],
          ...ADMIN_ERRORS,
          404: PRICE_MSG.tyreNotFound,
          409: [PRICE_MSG.sameAsInForce, scheduledLaterMessage('tyre', LATER)],
        }),
      },
    },
  },
  '/api/dashboard/prices/changes/{id}': {
    delete: {
      summary: 'Cancel a scheduled (not yet in force) fee schedule or tyre change, with a reason',
      tags,
      security,
      requestParams: { path: z.object({ id: z.string() }) },
      requestBody: jsonBody(cancelChangeSchema),
      responses: {
        '204': { description: 'Cancelled' },
        ...errors({
          400: [VALIDATION, PRICE_MSG.reason],
          ...ADMIN_ERRORS,
          404: PRICE_MSG.changeNotFound,
          409: PRICE_MSG.alreadyInForce,
        }),
      },
    },
  },
  '/api/dashboard/prices/audit': {
    get: {
      summary: 'The price list audit history: who changed what, when, why, before and after (newest first)',
      tags,
      security,
      responses: { '200': json('Audit entries', z.array(AuditEntry)), ...errors({ ...ADMIN_ERRORS }) },
    },
  },
};
