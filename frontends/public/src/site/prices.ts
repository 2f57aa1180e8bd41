/**
 * The prices the marketing copy names (callout, puncture repair, the prepaid saving), from the price list in force
 * (issue 19: admins change it; GET /api/pricing). Pages are prerendered at build with the code's list (content.ts),
 * so they stay static and fast; in the browser one request per page load replaces them with the list in force.
 * A failed request keeps the prerendered figures.
 */
import { useEffect, useState } from 'react';
import { formatListPrice, toCents } from '@tyres/kernel';
import { typedApi } from '@tyres/platform/typed-api';
import type { paths } from '@tyres/platform/api-types/booking';
import { CALLOUT_FEE, PREPAID_SAVING, PUNCTURE_REPAIR } from './content';

export interface SitePrices {
  calloutFee: string;
  punctureRepair: string;
  prepaidSaving: string;
}

export const BUILD_PRICES: SitePrices = {
  calloutFee: CALLOUT_FEE,
  punctureRepair: PUNCTURE_REPAIR,
  prepaidSaving: PREPAID_SAVING,
};

const booking = typedApi<paths>();
let inFlight: Promise<SitePrices> | undefined;

const shown = (value: unknown, fallback: string): string => {
  if (typeof value !== 'string') return fallback;
  try {
    return formatListPrice(toCents(value));
  } catch {
    return fallback;
  }
};

/** The list in force, fetched once per page load (shared by every component that asks). */
export function fetchSitePrices(): Promise<SitePrices> {
  inFlight ??= booking
    .get('/api/pricing', {})
    .then((p) => {
      const list = p as unknown as Record<string, unknown>;
      return {
        calloutFee: shown(list.calloutFee, CALLOUT_FEE),
        punctureRepair: shown(list.punctureRepair, PUNCTURE_REPAIR),
        prepaidSaving: shown(list.prepaidDiscount, PREPAID_SAVING),
      };
    })
    .catch(() => {
      inFlight = undefined;
      return BUILD_PRICES;
    });
  return inFlight;
}

/** For tests: forget the fetched list. */
export function resetSitePrices(): void {
  inFlight = undefined;
}

/** The prices to show: the prerendered ones first (hydration matches), then the list in force. */
export function useSitePrices(): SitePrices {
  const [prices, setPrices] = useState(BUILD_PRICES);
  useEffect(() => {
    let live = true;
    void fetchSitePrices().then((p) => {
      if (live) setPrices(p);
    });
    return () => {
      live = false;
    };
  }, []);
  return prices;
}
