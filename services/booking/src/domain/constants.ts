/**
 * Business constants (product spec sections 1, 7 and 9). Money is in integer cents (bigint): never floats.
 */
import { PRICE_LIST, TIME_SLOTS } from '@tyres/kernel';

// The calendar (slots, Perth dates), the service types with their labels and the tyre quantities are the kernel's
// (@tyres/kernel), written once for the services and both front ends.

/** The slots as GET /api/pricing has always published them: label and Perth start time. */
export const PRICING_TIME_SLOTS: readonly { slot: string; start: string }[] = TIME_SLOTS.map(
  ({ slot, start }) => ({
    slot,
    start,
  }),
);

/** Section 9, in cents: the kernel's price list (issue 13), under the name GET /api/pricing publishes. */
export const PRICES = PRICE_LIST;

/**
 * The GST rate, as published by GET /api/pricing. Prices are GST-inclusive, so a quote's GST is total ÷ 11, not 10%
 * of the total (issue 12): the kernel computes it; this is only the rate shown.
 */
export { GST_PERCENT } from '@tyres/kernel';

export const RESPONSE_TIME = '30-60 mins';

/** Photos (section 5): the kinds this service stores. The file rules (types, size, count) are the kernel's. */
export const PHOTO_TYPES = ['tyre-condition'] as const;
export {
  PHOTO_MIME_TYPES,
  PHOTO_MAX_MB,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_FILES,
  PHOTO_MAX_FILES_UNKNOWN_SIZE,
  type PhotoMimeType,
} from '@tyres/kernel';

/** Address suggestions (section 9): 3+ characters, 5 shown. */
export const ADDRESS_MIN_CHARS = 3;
export const ADDRESS_MAX_SUGGESTIONS = 5;
