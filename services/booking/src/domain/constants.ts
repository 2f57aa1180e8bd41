/**
 * Business constants (product spec sections 1, 7 and 9). Money is in integer cents (bigint): never floats.
 */
import { TIME_SLOTS } from '@tyres/kernel';

// The calendar (slots, Perth dates), the service types with their labels and the tyre quantities are the kernel's
// (@tyres/kernel), written once for the services and both front ends.

/** The slots as GET /api/pricing has always published them: label and Perth start time. */
export const PRICING_TIME_SLOTS: readonly { slot: string; start: string }[] = TIME_SLOTS.map(
  ({ slot, start }) => ({
    slot,
    start,
  }),
);

/** Section 9, in cents. */
export const PRICES = {
  calloutFee: 8980n,
  punctureRepair: 4000n,
  prepaidDiscount: 3000n,
  fittingPerTyre: 2500n,
  balancingPerTyre: 1500n,
  batteryService: 0n,
  /** "New tyres from $139" on the site: the cheapest tyre in the seeded catalogue. */
  newTyresBasePrice: 13900n,
} as const;

/**
 * The GST rate, as published by GET /api/pricing. Prices are GST-inclusive, so a quote's GST is total ÷ 11, not 10%
 * of the total (issue 12): the kernel computes it; this is only the rate shown.
 */
export { GST_PERCENT } from '@tyres/kernel';

export const RESPONSE_TIME = '30-60 mins';

/** Photos (section 5): jpeg, png, webp; 5 files of 5 MB each, 3 when the tyre size is unknown. */
export const PHOTO_TYPES = ['tyre-condition'] as const;
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoMimeType = (typeof PHOTO_MIME_TYPES)[number];
export const PHOTO_MAX_MB = 5;
export const PHOTO_MAX_BYTES = PHOTO_MAX_MB * 1024 * 1024;
export const PHOTO_MAX_FILES = 5;
export const PHOTO_MAX_FILES_UNKNOWN_SIZE = 3;

/** Address suggestions (section 9): 3+ characters, 5 shown. */
export const ADDRESS_MIN_CHARS = 3;
export const ADDRESS_MAX_SUGGESTIONS = 5;
