/**
 * The card surcharge rate the site prints (issue 19: an admin changes it on the price list, with effective-from
 * dates). The rate in force comes from billing's GET /api/payments/config; prerendered pages carry the kernel's seeded
 * rate (the build has no service to ask), and in the browser one request per page load replaces it. A failed request
 * keeps the prerendered rate. Every rate shown and every surcharge amount goes through the kernel (`formatSurchargeRate`,
 * `withCardSurcharge`: the rule billing charges by), never a second formatter.
 */
import { useEffect, useState } from 'react';
import {
  DEFAULT_CARD_SURCHARGE_BP,
  formatSurchargeRate,
  parseSurchargeRate,
  withCardSurcharge,
  type Cents,
  type SurchargeRate,
  type SurchargedAmount,
} from '@tyres/kernel';
import type { paths } from '@tyres/platform/api-types/billing';
import { typedApi } from '@tyres/platform/typed-api';

export interface CardSurcharge {
  /** Basis points (1.70% = 170n), the kernel's unit. */
  rate: SurchargeRate;
  /** "1.7%": as the business writes it. */
  label: string;
}

export const surchargeAt = (rate: SurchargeRate): CardSurcharge => ({
  rate,
  label: formatSurchargeRate(rate),
});

/** What a prerendered page prints: the seeded rate (the build asks no service). */
export const BUILD_SURCHARGE: CardSurcharge = surchargeAt(DEFAULT_CARD_SURCHARGE_BP);

/**
 * A rate as a percentage ("1.70", "1.7%", as booking's price list and a display field write it): the kernel's
 * parser. Undefined when it is not one.
 */
export function rateFromPercent(value: unknown): SurchargeRate | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return parseSurchargeRate(value);
}

/**
 * A rate as a decimal fraction ("0.017", /api/payments/config's `surchargeRate`): moved two places to a percentage
 * ("1.7") as text, then the kernel's parser (no floating point). Undefined when it is not one.
 */
export function rateFromFraction(value: unknown): SurchargeRate | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+)(?:\.(\d{1,4}))?\s*$/.exec(value);
  if (!m) return undefined;
  const digits = `${m[1]}${(m[2] ?? '').padEnd(4, '0')}`; // the fraction in basis points, as text
  const units = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  return parseSurchargeRate(`${units}.${digits.slice(-2)}`);
}

/**
 * The config's printable forms of the same rate ("1.7%", "1.70"), read first when billing sends them (through the
 * kernel's parser, so the label printed is still the kernel's); an older billing sends only the decimal `surchargeRate`.
 */
const DISPLAY_FIELDS = ['surchargeRateLabel', 'surchargeRatePercent'];

/** The rate in a /api/payments/config answer: a display field when there is one, else the decimal `surchargeRate`. */
export function rateOfConfig(config: unknown): SurchargeRate | undefined {
  if (!config || typeof config !== 'object') return undefined;
  const fields = config as Record<string, unknown>;
  for (const name of DISPLAY_FIELDS) {
    const rate = rateFromPercent(fields[name]);
    if (rate !== undefined) return rate;
  }
  return rateFromFraction(fields.surchargeRate);
}

const billing = typedApi<paths>();
let inFlight: Promise<CardSurcharge> | undefined;

/** The rate in force, fetched once per page load (shared by every component that asks). */
export function fetchCardSurcharge(): Promise<CardSurcharge> {
  inFlight ??= billing
    .get('/api/payments/config', {})
    .then((config) => {
      const rate = rateOfConfig(config);
      return rate === undefined ? BUILD_SURCHARGE : surchargeAt(rate);
    })
    .catch(() => {
      inFlight = undefined;
      return BUILD_SURCHARGE;
    });
  return inFlight;
}

/** For tests: forget the fetched rate. */
export function resetCardSurcharge(): void {
  inFlight = undefined;
}

/** The rate to print: the prerendered one first (hydration matches), then the rate in force. */
export function useCardSurcharge(): CardSurcharge {
  const [surcharge, setSurcharge] = useState(BUILD_SURCHARGE);
  useEffect(() => {
    let live = true;
    void fetchCardSurcharge().then((s) => {
      if (live) setSurcharge(s);
    });
    return () => {
      live = false;
    };
  }, []);
  return surcharge;
}

/** An amount paid by card at a rate: the kernel's rule billing charges by (half-up to the cent). */
export function surchargedAt(amount: Cents, surcharge: CardSurcharge): SurchargedAmount {
  return withCardSurcharge(amount, surcharge.rate);
}
