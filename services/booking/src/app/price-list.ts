/**
 * Price list administration (issue 19 item 5): the fee schedule and the tyre catalogue, versioned by effective-from,
 * edited by admins with a reason; every change written to the audit history in the same transaction. Quotes read
 * the list in force (db/pricing.ts); bookings keep the price they were quoted.
 */
import { formatMoney } from '@tyres/kernel';
import { badRequest, conflict, notFound, type Identity } from '@tyres/service-kit';
import type { PgExecutor } from '@tyres/events';
import {
  auditRows,
  cancelFeeVersion,
  cancelTyreVersion,
  catalogueTyre,
  catalogueTyres,
  feeVersion,
  feeVersions,
  insertAudit,
  insertFeeVersion,
  insertTyre,
  insertTyreVersion,
  lockPriceList,
  tyreVersion,
  tyreVersions,
  type AuditRow,
  type CatalogueTyreRow,
  type FeeVersionRow,
  type TyreVersionRow,
} from '../db/price-list';
import {
  catalogueSize,
  effectiveLabel,
  FEE_LABELS,
  FEE_KEYS,
  feesView,
  FIXED_PRICES,
  inForce,
  parseEffectiveFrom,
  parseFees,
  parsePrice,
  PRICE_MSG,
  sameFees,
  scheduledAfter,
  scheduledLaterMessage,
  SEED_FEES,
  RATE_LABEL,
  type ScheduleKey,
} from '../domain/price-list';
import type { z } from 'zod';
import type { feeScheduleSchema, tyreChangeSchema, tyreCreateSchema } from '../domain/price-list';

export interface FeeVersionView {
  id: string;
  effectiveFrom: string;
  fees: Record<ScheduleKey, string>;
  reason: string;
  createdBy: string;
  createdAt: string;
}

export interface TyreVersionView {
  id: string;
  effectiveFrom: string;
  price: string;
  inStock: boolean;
  reason: string;
  createdBy: string;
  createdAt: string;
}

export interface TyreView {
  id: string;
  size: string;
  brand: string;
  model: string;
  /** In force now. */
  price: string;
  inStock: boolean;
  /** When the state in force took effect (null: since the catalogue was seeded). */
  since: string | null;
  scheduled: TyreVersionView[];
}

export interface PriceListView {
  at: string;
  fees: FeeVersionView;
  scheduledFees: FeeVersionView[];
  tyres: TyreView[];
  fixed: typeof FIXED_PRICES;
  labels: Record<ScheduleKey, string>;
}

export interface AuditView {
  id: string;
  at: string;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  effectiveFrom: string | null;
  reason: string;
  before: unknown;
  after: unknown;
}

const feeVersionView = (v: FeeVersionRow): FeeVersionView => ({
  id: v.id,
  effectiveFrom: v.effectiveFrom.toISOString(),
  fees: feesView(v.fees),
  reason: v.reason,
  createdBy: v.createdByName,
  createdAt: v.createdAt.toISOString(),
});
const tyreVersionView = (v: TyreVersionRow): TyreVersionView => ({
  id: v.id,
  effectiveFrom: v.effectiveFrom.toISOString(),
  price: formatMoney(v.priceCents),
  inStock: v.inStock,
  reason: v.reason,
  createdBy: v.createdByName,
  createdAt: v.createdAt.toISOString(),
});

/** A tyre's state at `at`: its version in force, else its catalogue row. */
function tyreStateAt(t: CatalogueTyreRow, versions: readonly TyreVersionRow[], at: Date) {
  const v = inForce(versions, at);
  return v
    ? { priceCents: v.priceCents, inStock: v.inStock, since: v.effectiveFrom }
    : { priceCents: t.basePriceCents, inStock: t.baseInStock, since: null };
}
const tyreSnapshot = (t: CatalogueTyreRow, s: { priceCents: bigint; inStock: boolean }) => ({
  size: t.size,
  brand: t.brand,
  model: t.model,
  price: formatMoney(s.priceCents),
  inStock: s.inStock,
});

/**
 * Versions are full snapshots: one scheduled after `at` was taken before this change and would undo it on its date.
 * Refused (409) naming that date; one at the same instant (the later-recorded wins) is allowed as before.
 */
function refuseIfScheduledLater(
  subject: 'tyre' | 'fees',
  versions: readonly (FeeVersionRow | TyreVersionRow)[],
  at: Date,
): void {
  const next = scheduledAfter(versions, at)[0];
  if (next)
    throw conflict(
      scheduledLaterMessage(subject, effectiveLabel(next.effectiveFrom)),
      { scheduledChangeId: next.id, effectiveFrom: next.effectiveFrom.toISOString() },
      'scheduled_change_later',
    );
}

type FeeScheduleBody = z.output<typeof feeScheduleSchema>;
type TyreCreateBody = z.output<typeof tyreCreateSchema>;
type TyreChangeBody = z.output<typeof tyreChangeSchema>;

export class PriceList {
  constructor(private readonly deps: { sql: PgExecutor; clock: () => Date; onChanged?: () => void }) {}

  private effectiveFrom(value: unknown, now: Date): Date {
    const e = parseEffectiveFrom(value, now);
    if (!e.ok) throw badRequest(e.message, undefined, 'invalid_effective_from');
    return e.at;
  }

  /** GET /api/dashboard/prices: the list in force now and every scheduled (future) version. */
  async view(): Promise<PriceListView> {
    const now = this.deps.clock();
    const [fees, tyres, versions] = await Promise.all([
      feeVersions(this.deps.sql),
      catalogueTyres(this.deps.sql),
      tyreVersions(this.deps.sql),
    ]);
    const byTyre = new Map<string, TyreVersionRow[]>();
    for (const v of versions) byTyre.set(v.tyreId, [...(byTyre.get(v.tyreId) ?? []), v]);
    const current = inForce(fees, now);
    return {
      at: now.toISOString(),
      fees: current
        ? feeVersionView(current)
        : {
            id: '00000000-0000-0000-0000-000000000000',
            effectiveFrom: new Date(0).toISOString(),
            fees: feesView(SEED_FEES),
            reason: 'The product spec price list',
            createdBy: 'system',
            createdAt: new Date(0).toISOString(),
          },
      scheduledFees: scheduledAfter(fees, now).map(feeVersionView),
      tyres: tyres.map((t) => {
        const own = byTyre.get(t.id) ?? [];
        const s = tyreStateAt(t, own, now);
        return {
          id: t.id,
          size: t.size,
          brand: t.brand,
          model: t.model,
          price: formatMoney(s.priceCents),
          inStock: s.inStock,
          since: s.since ? s.since.toISOString() : null,
          scheduled: scheduledAfter(own, now).map(tyreVersionView),
        };
      }),
      fixed: FIXED_PRICES,
      labels: { ...FEE_LABELS, cardSurchargeRate: RATE_LABEL },
    };
  }

  /** PUT /api/dashboard/prices/fees: a new fee schedule from effectiveFrom (now when omitted). */
  async scheduleFees(body: FeeScheduleBody, by: Identity): Promise<FeeVersionView> {
    const parsed = parseFees(body);
    if (!parsed.ok) throw badRequest(parsed.message, { field: parsed.field }, 'invalid_price');
    const now = this.deps.clock();
    const at = this.effectiveFrom(body.effectiveFrom, now);
    const row = await this.deps.sql.$transaction(async (tx) => {
      await lockPriceList(tx);
      const versions = await feeVersions(tx);
      refuseIfScheduledLater('fees', versions, at);
      const before = inForce(versions, at);
      if (before && sameFees(before.fees, parsed.fees))
        throw conflict(PRICE_MSG.sameAsInForce, undefined, 'no_change');
      const created = await insertFeeVersion(tx, {
        effectiveFrom: at,
        fees: parsed.fees,
        reason: body.reason,
        createdBy: by.id,
        createdByName: by.username,
        now,
      });
      await insertAudit(tx, {
        at: now,
        actorId: by.id,
        actorName: by.username,
        action: 'fees.scheduled',
        subjectType: 'fees',
        subjectId: created.id,
        effectiveFrom: at,
        reason: body.reason,
        before: before ? feesView(before.fees) : null,
        after: feesView(created.fees),
      });
      return created;
    });
    this.deps.onChanged?.();
    return feeVersionView(row);
  }

  /** POST /api/dashboard/prices/tyres: a tyre new to the catalogue, offered from effectiveFrom. */
  async createTyre(body: TyreCreateBody, by: Identity): Promise<TyreView> {
    const size = catalogueSize(body.size);
    if (!size) throw badRequest(PRICE_MSG.size, { field: 'size' }, 'invalid_size');
    const price = parsePrice(body.price);
    if (!price.ok) throw badRequest(`price ${price.message}`, { field: 'price' }, 'invalid_price');
    if (price.cents === 0n) throw badRequest(PRICE_MSG.zeroTyre, { field: 'price' }, 'invalid_price');
    const now = this.deps.clock();
    const at = this.effectiveFrom(body.effectiveFrom, now);
    const { tyre, version } = await this.deps.sql.$transaction(async (tx) => {
      await lockPriceList(tx);
      const tyre = await insertTyre(tx, {
        size,
        brand: body.brand,
        model: body.model,
        priceCents: price.cents,
      });
      if (!tyre) throw conflict(PRICE_MSG.tyreExists, undefined, 'tyre_exists');
      const version = await insertTyreVersion(tx, {
        tyreId: tyre.id,
        effectiveFrom: at,
        priceCents: price.cents,
        inStock: body.inStock,
        reason: body.reason,
        createdBy: by.id,
        createdByName: by.username,
        now,
      });
      await insertAudit(tx, {
        at: now,
        actorId: by.id,
        actorName: by.username,
        action: 'tyre.created',
        subjectType: 'tyre',
        subjectId: tyre.id,
        effectiveFrom: at,
        reason: body.reason,
        before: null,
        after: tyreSnapshot(tyre, version),
      });
      return { tyre, version };
    });
    this.deps.onChanged?.();
    return this.tyreView(tyre, [version], now);
  }

  /** PUT /api/dashboard/prices/tyres/{id}: a new price and/or stock state from effectiveFrom. */
  async changeTyre(id: string, body: TyreChangeBody, by: Identity): Promise<TyreView> {
    if (body.price === undefined && body.inStock === undefined)
      throw badRequest(PRICE_MSG.nothingToChange, undefined, 'nothing_to_change');
    let priceCents: bigint | undefined;
    if (body.price !== undefined) {
      const p = parsePrice(body.price);
      if (!p.ok) throw badRequest(`price ${p.message}`, { field: 'price' }, 'invalid_price');
      if (p.cents === 0n) throw badRequest(PRICE_MSG.zeroTyre, { field: 'price' }, 'invalid_price');
      priceCents = p.cents;
    }
    const now = this.deps.clock();
    const at = this.effectiveFrom(body.effectiveFrom, now);
    const { tyre, versions } = await this.deps.sql.$transaction(async (tx) => {
      await lockPriceList(tx);
      const tyre = await catalogueTyre(tx, id);
      if (!tyre) throw notFound(PRICE_MSG.tyreNotFound);
      const versions = await tyreVersions(tx, id);
      refuseIfScheduledLater('tyre', versions, at);
      const before = tyreStateAt(tyre, versions, at);
      const after = { priceCents: priceCents ?? before.priceCents, inStock: body.inStock ?? before.inStock };
      if (after.priceCents === before.priceCents && after.inStock === before.inStock)
        throw conflict(PRICE_MSG.sameAsInForce, undefined, 'no_change');
      const version = await insertTyreVersion(tx, {
        tyreId: id,
        effectiveFrom: at,
        priceCents: after.priceCents,
        inStock: after.inStock,
        reason: body.reason,
        createdBy: by.id,
        createdByName: by.username,
        now,
      });
      await insertAudit(tx, {
        at: now,
        actorId: by.id,
        actorName: by.username,
        action: 'tyre.changed',
        subjectType: 'tyre',
        subjectId: id,
        effectiveFrom: at,
        reason: body.reason,
        before: tyreSnapshot(tyre, before),
        after: tyreSnapshot(tyre, after),
      });
      return { tyre, versions: [...versions, version] };
    });
    this.deps.onChanged?.();
    return this.tyreView(tyre, versions, now);
  }

  /** DELETE /api/dashboard/prices/changes/{id}: cancels a scheduled (not yet in force) fee or tyre change. */
  async cancelChange(id: string, reason: string, by: Identity): Promise<void> {
    const now = this.deps.clock();
    await this.deps.sql.$transaction(async (tx) => {
      await lockPriceList(tx);
      const fee = await feeVersion(tx, id);
      const tyreChange = fee ? undefined : await tyreVersion(tx, id);
      const change = fee ?? tyreChange;
      if (!change) throw notFound(PRICE_MSG.changeNotFound);
      if (change.effectiveFrom.getTime() <= now.getTime())
        throw conflict(PRICE_MSG.alreadyInForce, undefined, 'in_force');
      let before: unknown;
      let subjectId: string;
      if (fee) {
        await cancelFeeVersion(tx, id, now);
        before = { ...feesView(fee.fees), versionId: id };
        subjectId = id;
      } else {
        const t = tyreChange!;
        await cancelTyreVersion(tx, id, now);
        const tyre = await catalogueTyre(tx, t.tyreId);
        before = { ...tyreSnapshot(tyre!, t), versionId: id };
        subjectId = t.tyreId;
      }
      await insertAudit(tx, {
        at: now,
        actorId: by.id,
        actorName: by.username,
        action: fee ? 'fees.cancelled' : 'tyre.change-cancelled',
        subjectType: fee ? 'fees' : 'tyre',
        subjectId,
        effectiveFrom: change.effectiveFrom,
        reason,
        before,
        after: null,
      });
    });
    this.deps.onChanged?.();
  }

  /** GET /api/dashboard/prices/audit: the newest changes first. */
  async audit(limit = 200): Promise<AuditView[]> {
    return (await auditRows(this.deps.sql, limit)).map((a: AuditRow) => ({
      id: a.id,
      at: a.at.toISOString(),
      actor: a.actorName,
      action: a.action,
      subjectType: a.subjectType,
      subjectId: a.subjectId,
      effectiveFrom: a.effectiveFrom ? a.effectiveFrom.toISOString() : null,
      reason: a.reason,
      before: a.before,
      after: a.after,
    }));
  }

  private tyreView(t: CatalogueTyreRow, versions: TyreVersionRow[], now: Date): TyreView {
    const s = tyreStateAt(t, versions, now);
    return {
      id: t.id,
      size: t.size,
      brand: t.brand,
      model: t.model,
      price: formatMoney(s.priceCents),
      inStock: s.inStock,
      since: s.since ? s.since.toISOString() : null,
      scheduled: scheduledAfter(versions, now).map(tyreVersionView),
    };
  }
}

export { FEE_KEYS };
