import { priceToCents } from '../domain/pricing';
import type { Sql } from './client';

export interface TyrePrice {
  size: string;
  brand: string;
  model: string;
  cents: bigint;
}

/**
 * The supply price of one tyre of `size`: the preferred brand's when it stocks the size, else the cheapest active
 * tyre of that size (the price the site shows). Undefined when the size is not in the catalogue (callback).
 */
export async function tyrePrice(
  db: Sql,
  size: string,
  preferredBrand?: string | null,
): Promise<TyrePrice | undefined> {
  const rows = await db.$queryRawUnsafe<
    { size: string; brand: string; model: string; retail_price: string }[]
  >(
    `SELECT size, brand, model, retail_price::text AS retail_price FROM booking.tyre_stock_pricing
      WHERE size = $1 AND is_active
      ORDER BY (lower(brand) = lower(coalesce($2, ''))) DESC, retail_price ASC, brand ASC
      LIMIT 1`,
    size,
    preferredBrand ?? null,
  );
  const row = rows[0];
  return row
    ? { size: row.size, brand: row.brand, model: row.model, cents: priceToCents(row.retail_price) }
    : undefined;
}
