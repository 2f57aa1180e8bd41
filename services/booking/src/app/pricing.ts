/** Prices from the catalogue: a tyre size's price, and the price quote the booking dialog shows as it goes. */
import type { PriceQuoteRequest } from '@tyres/kernel';
import type { Sql } from '../db/client';
import { tyrePrice, type TyrePrice } from '../db/pricing';
import { computeQuote, type Quote } from '../domain/pricing';

export class Pricing {
  constructor(private readonly deps: { sql: Sql }) {}

  /** One tyre of a (normalised) size: the preferred brand's, else the cheapest; undefined when not stocked. */
  tyrePrice(size: string, brand?: string | null): Promise<TyrePrice | undefined> {
    return tyrePrice(this.deps.sql, size, brand);
  }

  /** POST /api/pricing/quote: server-side, the client's numbers never used. */
  async quote(q: PriceQuoteRequest): Promise<Quote> {
    const tyre =
      q.serviceType === 'new-tyres' && q.tyreSize ? await this.tyrePrice(q.tyreSize, q.tyreBrand) : undefined;
    return computeQuote({
      serviceType: q.serviceType,
      tyreSize: q.tyreSize,
      tyrePriceCents: tyre?.cents ?? null,
      quantity: q.quantity,
      prepaid: q.prepaid,
    });
  }
}
