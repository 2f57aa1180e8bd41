/**
 * What the customer has entered so far, kept in sessionStorage (this tab only, gone when it closes) so that a
 * reload in the middle of the booking dialog (a phone dropping the page, a pull-to-refresh) brings the dialog
 * back at the same step with the same answers. Photos cannot be kept: the customer is asked to add them again.
 * The draft is removed when the booking is made or the confirmation is closed.
 */
import { isCalendarDate, perthToday } from '@tyres/kernel';
import { defaultValues, TOTAL_STEPS, type BookingValues, type Step } from './schema';

export const DRAFT_KEY = 'tyres.booking.draft';

export interface Draft {
  step: Step;
  values: BookingValues;
  photoCount: number;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage disabled (private mode on some browsers)
  }
}

export function saveDraft(draft: Draft): void {
  try {
    storage()?.setItem(DRAFT_KEY, JSON.stringify({ v: 1, ...draft }));
  } catch {
    // quota or disabled storage: the draft is a convenience only
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY);
  } catch {
    // ignore
  }
}

/** The saved draft, checked field by field; a date that is now in the past is dropped (back to step 1). */
export function loadDraft(today: string = perthToday()): Draft | null {
  let raw: unknown;
  try {
    const text = storage()?.getItem(DRAFT_KEY);
    if (!text) return null;
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || (raw as { v?: unknown }).v !== 1) return null;
  const saved = raw as { step?: unknown; values?: unknown; photoCount?: unknown };
  if (!saved.values || typeof saved.values !== 'object') return null;
  const values = defaultValues();
  const input = saved.values as Record<string, unknown>;
  for (const key of Object.keys(values) as (keyof BookingValues)[]) {
    const value = input[key];
    if (key === 'quantity') {
      if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 4)
        values.quantity = value;
    } else if (key === 'paymentMethod') {
      if (value === 'prepaid' || value === 'onsite') values.paymentMethod = value;
    } else if (key === 'serviceType') {
      if (
        value === 'new-tyres' ||
        value === 'puncture-repair' ||
        value === 'battery-service' ||
        value === 'emergency-callout'
      ) {
        values.serviceType = value;
      }
    } else if (typeof value === 'string') {
      values[key] = value.slice(0, 2000);
    }
  }
  let step =
    typeof saved.step === 'number' &&
    Number.isInteger(saved.step) &&
    saved.step >= 1 &&
    saved.step < TOTAL_STEPS
      ? (saved.step as Step)
      : 1;
  if (values.date && (!isCalendarDate(values.date) || values.date < today)) {
    values.date = '';
    values.timeSlot = '';
    step = 1;
  }
  if (step > 2 && !values.serviceType) step = 2;
  const photoCount = typeof saved.photoCount === 'number' && saved.photoCount > 0 ? saved.photoCount : 0;
  return { step, values, photoCount };
}
