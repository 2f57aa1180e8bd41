/**
 * The price list's tables (issue 19 item 5): fee schedule versions, tyre price versions over the catalogue
 * (tyre_stock_pricing) and the audit history. Raw SQL; rules (which version is in force) are domain/price-list.ts,
 * mirrored here by the queries that pick the version in force for a quote.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_CARD_SURCHARGE_BP, formatMoney, parseSurchargeRate, surchargeRateToWire, type Cents } from '@tyres/kernel';
import { priceToCents } from '../domain/pricing';
import type { FeeSchedule } from '../domain/price-list';
import type { Sql } from './client';

export interface FeeVersionRow {
  id: string;
  effectiveFrom: Date;
  fees: FeeSchedule;
  reason: string;
  createdBy: string | null;
  createdByName: string;
  createdAt: Date;
}

export interface TyreVersionRow {
  id: string;
  tyreId: string;
  effectiveFrom: Date;
  priceCents: Cents;
  inStock: boolean;
  reason: string;
  createdByName: string;
  createdAt: Date;
}

export interface CatalogueTyreRow {
  id: string;
  size: string;
  brand: string;
  model: string;
  /** The base row's price and stock: the tyre's state before any version (the seeded catalogue). */
  basePriceCents: Cents;
  baseInStock: boolean;
  baseSince: Date;
}

export interface AuditRow {
  id: string;
  at: Date;
  actorId: string | null;
  actorName: string;
  action: string;
  subjectType: string;
  subjectId: string;
  effectiveFrom: Date | null;
  reason: string;
  before: unknown;
  after: unknown;
}

type Money = string;
interface FeeDb {
  id: string;
  effective_from: Date;
  callout_fee: Money;
  puncture_repair: Money;
  fitting_per_tyre: Money;
  balancing_per_tyre: Money;
  prepaid_discount: Money;
  card_surcharge_rate: string;
  reason: string;
  created_by: string | null;
  created_by_name: string;
  created_at: Date;
}

const FEE_COLS = `id::text, effective_from, callout_fee::text, puncture_repair::text, fitting_per_tyre::text,
  balancing_per_tyre::text, prepaid_discount::text, card_surcharge_rate::text, reason, created_by::text, created_by_name, created_at`;

const feeRow = (r: FeeDb): FeeVersionRow => ({
  id: r.id,
  effectiveFrom: new Date(r.effective_from),
  fees: {
    calloutFee: priceToCents(r.callout_fee),
    punctureRepair: priceToCents(r.puncture_repair),
    fittingPerTyre: priceToCents(r.fitting_per_tyre),
    balancingPerTyre: priceToCents(r.balancing_per_tyre),
    prepaidDiscount: priceToCents(r.prepaid_discount),
    cardSurchargeRate: parseSurchargeRate(r.card_surcharge_rate) ?? DEFAULT_CARD_SURCHARGE_BP,
  },
  reason: r.reason,
  createdBy: r.created_by,
  createdByName: r.created_by_name,
  createdAt: new Date(r.created_at),
});

/** The fee schedule in force at `at` (the quote's read: one indexed row). */
export async function feesInForce(db: Sql, at: Date): Promise<FeeVersionRow | undefined> {
  const rows = await db.$queryRawUnsafe<FeeDb[]>(
    `SELECT ${FEE_COLS} FROM booking.price_fee_versions
      WHERE cancelled_at IS NULL AND effective_from <= $1
      ORDER BY effective_from DESC, created_at DESC LIMIT 1`,
    at,
  );
  return rows[0] ? feeRow(rows[0]) : undefined;
}

/** Every live (not cancelled) fee version. */
export async function feeVersions(db: Sql): Promise<FeeVersionRow[]> {
  const rows = await db.$queryRawUnsafe<FeeDb[]>(
    `SELECT ${FEE_COLS} FROM booking.price_fee_versions WHERE cancelled_at IS NULL ORDER BY effective_from, created_at`,
  );
  return rows.map(feeRow);
}

export async function insertFeeVersion(
  db: Sql,
  v: {
    effectiveFrom: Date;
    fees: FeeSchedule;
    reason: string;
    createdBy: string;
    createdByName: string;
    now: Date;
  },
): Promise<FeeVersionRow> {
  const [row] = await db.$queryRawUnsafe<FeeDb[]>(
    `INSERT INTO booking.price_fee_versions (id, effective_from, callout_fee, puncture_repair, fitting_per_tyre,
        balancing_per_tyre, prepaid_discount, reason, created_by, created_by_name, created_at, card_surcharge_rate)
     VALUES ($1::uuid, $2, $3::numeric, $4::numeric, $5::numeric, $6::numeric, $7::numeric, $8, $9::uuid, $10, $11,
       $12::numeric)
     RETURNING ${FEE_COLS}`,
    randomUUID(),
    v.effectiveFrom,
    formatMoney(v.fees.calloutFee),
    formatMoney(v.fees.punctureRepair),
    formatMoney(v.fees.fittingPerTyre),
    formatMoney(v.fees.balancingPerTyre),
    formatMoney(v.fees.prepaidDiscount),
    v.reason,
    v.createdBy,
    v.createdByName,
    v.now,
    surchargeRateToWire(v.fees.cardSurchargeRate),
  );
  return feeRow(row!);
}

/** Marks a fee version cancelled; the row when it was live. */
export async function cancelFeeVersion(db: Sql, id: string, now: Date): Promise<FeeVersionRow | undefined> {
  const rows = await db.$queryRawUnsafe<FeeDb[]>(
    `UPDATE booking.price_fee_versions SET cancelled_at = $2 WHERE id = $1::uuid AND cancelled_at IS NULL
     RETURNING ${FEE_COLS}`,
    id,
    now,
  );
  return rows[0] ? feeRow(rows[0]) : undefined;
}

export async function feeVersion(db: Sql, id: string): Promise<FeeVersionRow | undefined> {
  const rows = await db.$queryRawUnsafe<FeeDb[]>(
    `SELECT ${FEE_COLS} FROM booking.price_fee_versions WHERE id = $1::uuid AND cancelled_at IS NULL`,
    id,
  );
  return rows[0] ? feeRow(rows[0]) : undefined;
}

// ---------------------------------------------------------------- tyres

interface TyreDb {
  id: string;
  size: string;
  brand: string;
  model: string;
  retail_price: Money;
  is_active: boolean;
  created_at: Date;
}
interface TyreVersionDb {
  id: string;
  tyre_id: string;
  effective_from: Date;
  retail_price: Money;
  in_stock: boolean;
  reason: string;
  created_by_name: string;
  created_at: Date;
}
const TYRE_VERSION_COLS = `id::text, tyre_id::text, effective_from, retail_price::text, in_stock, reason, created_by_name,
  created_at`;
const tyreVersionRow = (r: TyreVersionDb): TyreVersionRow => ({
  id: r.id,
  tyreId: r.tyre_id,
  effectiveFrom: new Date(r.effective_from),
  priceCents: priceToCents(r.retail_price),
  inStock: r.in_stock,
  reason: r.reason,
  createdByName: r.created_by_name,
  createdAt: new Date(r.created_at),
});
const tyreRow = (r: TyreDb): CatalogueTyreRow => ({
  id: r.id,
  size: r.size,
  brand: r.brand,
  model: r.model,
  basePriceCents: priceToCents(r.retail_price),
  baseInStock: r.is_active,
  baseSince: new Date(r.created_at),
});

export async function catalogueTyres(db: Sql): Promise<CatalogueTyreRow[]> {
  const rows = await db.$queryRawUnsafe<TyreDb[]>(
    `SELECT id::text, size, brand, model, retail_price::text, is_active, created_at FROM booking.tyre_stock_pricing
      ORDER BY size, brand, model`,
  );
  return rows.map(tyreRow);
}

export async function catalogueTyre(db: Sql, id: string): Promise<CatalogueTyreRow | undefined> {
  const rows = await db.$queryRawUnsafe<TyreDb[]>(
    `SELECT id::text, size, brand, model, retail_price::text, is_active, created_at FROM booking.tyre_stock_pricing
      WHERE id = $1::uuid`,
    id,
  );
  return rows[0] ? tyreRow(rows[0]) : undefined;
}

export async function tyreVersions(db: Sql, tyreId?: string): Promise<TyreVersionRow[]> {
  const rows = await db.$queryRawUnsafe<TyreVersionDb[]>(
    `SELECT ${TYRE_VERSION_COLS} FROM booking.tyre_price_versions
      WHERE cancelled_at IS NULL AND ($1::uuid IS NULL OR tyre_id = $1::uuid) ORDER BY effective_from, created_at`,
    tyreId ?? null,
  );
  return rows.map(tyreVersionRow);
}

/**
 * A new catalogue tyre: its base row is not offered (is_active false); its first version makes it offered from
 * effectiveFrom. Undefined when (size, brand, model) is already in the catalogue.
 */
export async function insertTyre(
  db: Sql,
  t: { size: string; brand: string; model: string; priceCents: Cents },
): Promise<CatalogueTyreRow | undefined> {
  const price = formatMoney(t.priceCents);
  const rows = await db.$queryRawUnsafe<TyreDb[]>(
    `INSERT INTO booking.tyre_stock_pricing (id, size, brand, model, purchase_price, retail_price, is_active)
     VALUES ($1::uuid, $2, $3, $4, $5::numeric, $5::numeric, false)
     ON CONFLICT (size, brand, model) DO NOTHING
     RETURNING id::text, size, brand, model, retail_price::text, is_active, created_at`,
    randomUUID(),
    t.size,
    t.brand,
    t.model,
    price,
  );
  return rows[0] ? tyreRow(rows[0]) : undefined;
}

export async function insertTyreVersion(
  db: Sql,
  v: {
    tyreId: string;
    effectiveFrom: Date;
    priceCents: Cents;
    inStock: boolean;
    reason: string;
    createdBy: string;
    createdByName: string;
    now: Date;
  },
): Promise<TyreVersionRow> {
  const [row] = await db.$queryRawUnsafe<TyreVersionDb[]>(
    `INSERT INTO booking.tyre_price_versions (id, tyre_id, effective_from, retail_price, in_stock, reason, created_by,
        created_by_name, created_at)
     VALUES ($1::uuid, $2::uuid, $3, $4::numeric, $5, $6, $7::uuid, $8, $9) RETURNING ${TYRE_VERSION_COLS}`,
    randomUUID(),
    v.tyreId,
    v.effectiveFrom,
    formatMoney(v.priceCents),
    v.inStock,
    v.reason,
    v.createdBy,
    v.createdByName,
    v.now,
  );
  return tyreVersionRow(row!);
}

export async function tyreVersion(db: Sql, id: string): Promise<TyreVersionRow | undefined> {
  const rows = await db.$queryRawUnsafe<TyreVersionDb[]>(
    `SELECT ${TYRE_VERSION_COLS} FROM booking.tyre_price_versions WHERE id = $1::uuid AND cancelled_at IS NULL`,
    id,
  );
  return rows[0] ? tyreVersionRow(rows[0]) : undefined;
}

export async function cancelTyreVersion(db: Sql, id: string, now: Date): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE booking.tyre_price_versions SET cancelled_at = $2 WHERE id = $1::uuid AND cancelled_at IS NULL`,
    id,
    now,
  );
}

// ---------------------------------------------------------------- audit

export async function insertAudit(db: Sql, a: Omit<AuditRow, 'id' | 'at'> & { at: Date }): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO booking.price_list_audit (id, at, actor_id, actor_name, action, subject_type, subject_id,
        effective_from, reason, before, after)
     VALUES ($1::uuid, $2, $3::uuid, $4, $5, $6, $7::uuid, $8, $9, $10::jsonb, $11::jsonb)`,
    randomUUID(),
    a.at,
    a.actorId,
    a.actorName,
    a.action,
    a.subjectType,
    a.subjectId,
    a.effectiveFrom,
    a.reason,
    a.before === null || a.before === undefined ? null : JSON.stringify(a.before),
    a.after === null || a.after === undefined ? null : JSON.stringify(a.after),
  );
}

interface AuditDb {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string;
  action: string;
  subject_type: string;
  subject_id: string;
  effective_from: Date | null;
  reason: string;
  before: unknown;
  after: unknown;
}

export async function auditRows(db: Sql, limit: number): Promise<AuditRow[]> {
  const rows = await db.$queryRawUnsafe<AuditDb[]>(
    `SELECT id::text, at, actor_id::text, actor_name, action, subject_type, subject_id::text, effective_from, reason,
            before, after
       FROM booking.price_list_audit ORDER BY at DESC, id LIMIT $1`,
    limit,
  );
  return rows.map((r) => ({
    id: r.id,
    at: new Date(r.at),
    actorId: r.actor_id,
    actorName: r.actor_name,
    action: r.action,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    effectiveFrom: r.effective_from ? new Date(r.effective_from) : null,
    reason: r.reason,
    before: typeof r.before === 'string' ? JSON.parse(r.before) : r.before,
    after: typeof r.after === 'string' ? JSON.parse(r.after) : r.after,
  }));
}

/** Serialises price-list writers (one admin's change is checked against the versions the last one left). */
export async function lockPriceList(db: Sql): Promise<void> {
  await db.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('booking.price_list'))`);
}
