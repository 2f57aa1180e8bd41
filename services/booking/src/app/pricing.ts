/** Prices from the price list in force (issue 19): a tyre size's price, and the price quote the booking dialog shows. */
import type { PriceQuoteRequest } from '@tyres/kernel';
import type { Sql } from '../db/client';
import { quoteFeesAt, tyrePrice, type TyrePrice } from '../db/pricing';
import type { FeeSchedule } from '../domain/price-list';
import { computeQuote, type Quote } from '../domain/pricing';

export class Pricing {
  constructor(private readonly deps: { sql: Sql; clock?: () => Date }) {}

  private now(): Date {
    return this.deps.clock ? this.deps.clock() : new Date();
  }

  /** One tyre of a (normalised) size: the preferred brand's, else the cheapest; undefined when not stocked. */
  tyrePrice(size: string, brand?: string | null): Promise<TyrePrice | undefined> {
    return tyrePrice(this.deps.sql, size, brand, this.now());
  }

  /** The fee schedule in force now (GET /api/pricing). */
  fees(): Promise<FeeSchedule> {
    return quoteFeesAt(this.deps.sql, this.now());
  }

  /** POST /api/pricing/quote: server-side, on the list in force now; the client's numbers never used. */
  async quote(q: PriceQuoteRequest): Promise<Quote> {
    const at = this.now();
    const [tyre, fees] = await Promise.all([
      q.serviceType === 'new-tyres' && q.tyreSize
        ? tyrePrice(this.deps.sql, q.tyreSize, q.tyreBrand, at)
        : undefined,
      quoteFeesAt(this.deps.sql, at),
    ]);
    return computeQuote({
      serviceType: q.serviceType,
      tyreSize: q.tyreSize,
      tyrePriceCents: tyre?.cents ?? null,
      quantity: q.quantity,
      prepaid: q.prepaid,
      fees,
    });
  }
}
