/**
 * The three report use cases: a period in, the report out (figures from the database's sums, shaped by
 * src/domain/reports.ts). Reads only; each report is one statement, one snapshot.
 */
import { addDays, perthDate } from '@tyres/kernel';
import type { Db } from '../db/client';
import { gstBlocks, payablesData, plData } from '../db/reports';
import { parseNumeric } from '../domain/money';
import type { Period } from '../domain/period';
import { enhancedPl, gstTotals, payablesReport, UPCOMING_DAYS, type GstTotals } from '../domain/reports';
import { GstBlockCache } from './gst-block-cache';

export interface GstReport {
  totals: GstTotals;
  /** The report's rows per day (pre-rendered JSON, comma-joined, in report order), in date order, as UTF-8. */
  customerBlocks: Buffer[];
  purchaseBlocks: Buffer[];
}

/** The report answers as src/domain/reports.ts shapes them. */
export type PayablesReport = ReturnType<typeof payablesReport>;
export type EnhancedPl = ReturnType<typeof enhancedPl>;

export interface ReportDeps {
  db: Db;
  /** "Now" for overdue and days until due (tests pin it). */
  clock: () => Date;
  /** Day blocks of the GST report held as bytes (default: a new cache of the default size). */
  gstCache?: GstBlockCache;
}

export class ReportUseCases {
  private readonly db: Db;
  private readonly clock: () => Date;
  private readonly gstCache: GstBlockCache;

  constructor({ db, clock, gstCache = new GstBlockCache() }: ReportDeps) {
    this.db = db;
    this.clock = clock;
    this.gstCache = gstCache;
  }

  /**
   * GST collected and paid, and the lists, from the day blocks. Blocks whose current revision the cache holds come
   * from the cache; the others are read and cached.
   */
  async gst(period: Period): Promise<GstReport> {
    const cache = this.gstCache;
    const held = cache.inPeriod(period);
    const rows = await gstBlocks(this.db, period, held.values());
    let collected = 0n;
    let paid = 0n;
    const customerBlocks: Buffer[] = [];
    const purchaseBlocks: Buffer[] = [];
    for (const [kind, day, gst, revision, content] of rows) {
      let block = content === null ? held.get(GstBlockCache.key(kind, day)) : undefined;
      if (block) cache.touch(block);
      else {
        if (content === null) throw new Error(`GST block ${kind} ${day} neither held nor read`);
        block = { kind, day, revision, body: Buffer.from(content) };
        cache.put(block);
      }
      if (kind === 'customer') {
        collected += parseNumeric(gst);
        customerBlocks.push(block.body);
      } else {
        paid += parseNumeric(gst);
        purchaseBlocks.push(block.body);
      }
    }
    return { totals: gstTotals(collected, paid), customerBlocks, purchaseBlocks };
  }

  /** Purchases and payables of the period, overdue and days until due counted from today in Perth. */
  async payables(period: Period): Promise<PayablesReport> {
    const today = perthDate(this.clock());
    const horizon = addDays(today, UPCOMING_DAYS);
    return payablesReport(await payablesData(this.db, period, { today, horizon }), today);
  }

  /** Revenue, costs and profit of the period. */
  async enhancedPl(period: Period): Promise<EnhancedPl> {
    return enhancedPl(await plData(this.db, period));
  }
}
