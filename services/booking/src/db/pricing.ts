import { priceToCents } from '../domain/pricing';
import { SEED_FEES, type FeeSchedule } from '../domain/price-list';
import { feesInForce } from './price-list';
import type { Sql } from './client';

export interface TyrePrice {
  size: string;
  brand: string;
  model: string;
  cents: bigint;
}

/**
 * The supply price of one tyre of `size` on the price list in force at `at` (issue 19: a tyre's latest price version
 * with effective_from <= at, else its catalogue row): the preferred brand's when it stocks the size, else the
 * cheapest tyre of that size in stock (the price the site shows). Undefined when the size is not in the catalogue
 * or not in stock (callback).
 */
export async function tyrePrice(
  db: Sql,
  size: string,
  preferredBrand?: string | null,
  at: Date = new Date(),
): Promise<TyrePrice | undefined> {
  const rows = await db.$queryRawUnsafe<
    { size: string; brand: string; model: string; retail_price: string }[]
  >(
    `SELECT t.size, t.brand, t.model, coalesce(v.retail_price, t.retail_price)::text AS retail_price
       FROM booking.tyre_stock_pricing t
       LEFT JOIN LATERAL (
         SELECT retail_price, in_stock FROM booking.tyre_price_versions
          WHERE tyre_id = t.id AND cancelled_at IS NULL AND effective_from <= $3
          ORDER BY effective_from DESC, created_at DESC LIMIT 1) v ON true
      WHERE t.size = $1 AND coalesce(v.in_stock, t.is_active)
      ORDER BY (lower(t.brand) = lower(coalesce($2, ''))) DESC, coalesce(v.retail_price, t.retail_price) ASC,
               t.brand ASC
      LIMIT 1`,
    size,
    preferredBrand ?? null,
    at,
  );
  const row = rows[0];
  return row
    ? { size: row.size, brand: row.brand, model: row.model, cents: priceToCents(row.retail_price) }
    : undefined;
}

/** The fees in force at `at` (issue 19 price list); the seeded constants if the table has no version yet. */
export async function quoteFeesAt(db: Sql, at: Date): Promise<FeeSchedule> {
  return (await feesInForce(db, at))?.fees ?? SEED_FEES;
}
