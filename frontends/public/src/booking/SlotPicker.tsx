import { useEffect, useState } from 'react';
import {
  EMERGENCY_RESPONSE_TIME,
  emergencySlot,
  isSlotPast,
  perthToday,
  TIME_SLOTS,
  type EmergencySlot,
} from '@tyres/kernel';
import { PhoneIcon } from '../components/icons';
import { HOURS_LONG } from '../site/content';
import { phoneLabel, useSite } from '../site/context';
import { useTimeSlots, type TimeSlotState } from './api';
import { MESSAGES } from './schema';

/** How often the picker looks at the clock again (slots pass, the callout hours open and close while it is open). */
const CLOCK_TICK_MS = 30_000;

/** The current time, re-read every CLOCK_TICK_MS (the browser's clock; Playwright's page.clock in e2e). */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Today's emergency callout "as soon as possible" (issue 19, the kernel's `emergencySlot`): offered only when a
 * technician could actually be sent now, i.e. within the callout hours (weekdays from 8:00 until 30 minutes before
 * closing), on the slot under way that the server still lists free (today has capacity). That is also exactly when
 * booking records the booking as an emergency callout ("EMERGENCY CALLOUT…" in its notes). Otherwise why not:
 * - `hours`: outside the callout hours (before 8:00, from 15:30, a weekend);
 * - `full`: the slot the technician would arrive in has no technician free (listed unavailable with no reason);
 * - `blocked`: that slot is unavailable for a reason of its own (a closed public holiday, a block): its
 *   `blockedReason` is shown, not "no technician free";
 * - `not-started`: the arrival falls in a slot that has not started yet (e.g. 9:45 -> 10-12 AM): a normal booking of
 *   that slot, with no 30-60 minute promise.
 */
export type EmergencyOffer =
  | { kind: 'asap'; slot: EmergencySlot }
  | { kind: 'hours' | 'not-started'; slot?: EmergencySlot }
  | { kind: 'full'; slot: EmergencySlot }
  | { kind: 'blocked'; slot: EmergencySlot; reason: string };

export function emergencyOffer(slots: readonly TimeSlotState[], now: Date): EmergencyOffer {
  const e = emergencySlot(now);
  if (!e) return { kind: 'hours' };
  const state = slots.find((s) => s.slot === e.slot);
  if (!state?.isAvailable) {
    const reason = state?.blockedReason?.trim();
    return reason ? { kind: 'blocked', slot: e, reason } : { kind: 'full', slot: e };
  }
  return e.started ? { kind: 'asap', slot: e } : { kind: 'not-started', slot: e };
}

export interface SlotPickerProps {
  /** The chosen date (YYYY-MM-DD), or '' before one is chosen. */
  date: string;
  /** The chosen slot, or ''. */
  value: string;
  onChange: (slot: string) => void;
  /** Prefix of the ids of the per-slot reasons, and the id of the error under the list, if any. */
  idBase: string;
  errorId?: string;
  /** A slot that must not be offered although the server lists it free (the booking's own slot when moving it). */
  current?: string;
}

/**
 * The slots of a date as radio cards (GET /api/time-slots, the same cached lists everywhere): a slot of today that
 * has started is disabled with "Time has passed", an unavailable one with its blocked reason or "Unavailable".
 * Used by the booking dialog's first step and by the "manage my booking" page's Reschedule.
 */
export function SlotPicker({ date, value, onChange, idBase, errorId, current }: SlotPickerProps) {
  const slots = useTimeSlots(date);
  const now = useNow();
  // Emergency callout (issue 19): today only, and not when moving a booking (the manage page).
  const offer =
    !current && date !== '' && date === perthToday(now) && slots.data
      ? emergencyOffer(slots.data, now)
      : undefined;
  const asapSlot = offer?.kind === 'asap' ? offer.slot.slot : undefined;
  return (
    <fieldset className="bk-fieldset" aria-describedby={errorId}>
      <legend className="bk-label">Time slot</legend>
      {!date && <p className="bk-hint">Choose a date to see the available times.</p>}
      {date && slots.isPending && (
        <p className="bk-hint" role="status">
          <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Checking availability…
        </p>
      )}
      {date && slots.isError && (
        <div className="bk-inline-error" role="alert">
          <p>{MESSAGES.slotsFailed}</p>
          <button type="button" className="pub-btn pub-btn--outline" onClick={() => void slots.refetch()}>
            Try again
          </button>
        </div>
      )}
      {date && slots.data && (
        <div className="bk-slots">
          {TIME_SLOTS.map(({ slot }) => {
            const state = slots.data.find((s) => s.slot === slot);
            const isEmergency = asapSlot === slot;
            const passed = isSlotPast(date, slot, now) && !isEmergency;
            const isCurrent = current === slot;
            const available = !passed && !isCurrent && state?.isAvailable === true;
            const reason = passed
              ? 'Time has passed'
              : isCurrent
                ? 'Your current time'
                : available
                  ? null
                  : state?.blockedReason || 'Unavailable';
            const reasonId = `${idBase}-${slot.replace(/\W+/g, '')}`;
            const asap = isEmergency && available;
            return (
              <label
                key={slot}
                className={`bk-choice bk-slot${available ? '' : ' bk-choice--disabled'}${value === slot ? ' bk-choice--checked' : ''}`}
              >
                <input
                  type="radio"
                  name="timeSlot"
                  value={slot}
                  checked={value === slot}
                  disabled={!available}
                  aria-describedby={reason || asap ? reasonId : undefined}
                  onChange={() => onChange(slot)}
                />
                <span className="bk-choice__label">{slot}</span>
                {reason && (
                  <span id={reasonId} className="bk-choice__hint">
                    {reason}
                  </span>
                )}
                {asap && (
                  <span id={reasonId} className="bk-choice__hint">
                    As soon as possible: a technician will be with you in {EMERGENCY_RESPONSE_TIME}
                  </span>
                )}
              </label>
            );
          })}
        </div>
      )}
      {offer && offer.kind !== 'asap' && (
        <EmergencyNotNow
          why={offer.kind}
          reason={offer.kind === 'blocked' ? offer.reason : undefined}
          next={nextFreeSlot(slots.data ?? [], date, now)}
          onChoose={onChange}
        />
      )}
    </fieldset>
  );
}

/** Today's first slot a normal booking may still take (not started, listed free), if any. */
function nextFreeSlot(slots: readonly TimeSlotState[], date: string, now: Date): string | undefined {
  return TIME_SLOTS.map((t) => t.slot).find(
    (slot) => !isSlotPast(date, slot, now) && slots.some((s) => s.slot === slot && s.isAvailable),
  );
}

const NOT_NOW: Record<'hours' | 'full' | 'not-started', string> = {
  hours: `An emergency callout (${EMERGENCY_RESPONSE_TIME}) is not available right now: emergency callouts run ${HOURS_LONG}.`,
  full: `No technician is free for an emergency callout today (${EMERGENCY_RESPONSE_TIME}).`,
  'not-started': `An emergency callout (${EMERGENCY_RESPONSE_TIME}) is not available right now.`,
};

/** Today's emergency slot is blocked: its own reason (e.g. the public holiday's name), as a sentence. */
function blockedText(reason: string): string {
  const r = reason.trim() || 'Unavailable';
  return `An emergency callout (${EMERGENCY_RESPONSE_TIME}) is not available today: ${r}${/[.!?]$/.test(r) ? '' : '.'}`;
}

/**
 * Today, when no technician can be sent now (outside the callout hours, no technician free, or the next slot has
 * not started): the next free slot today (a button choosing it), else "another day", and the call button (issue 19).
 */
function EmergencyNotNow({
  why,
  reason,
  next,
  onChoose,
}: {
  why: 'hours' | 'full' | 'not-started' | 'blocked';
  /** The slot's own blocked reason, when `why` is 'blocked'. */
  reason?: string;
  next: string | undefined;
  onChoose: (slot: string) => void;
}) {
  const { business } = useSite();
  return (
    <div className="bk-inline-error" role="note">
      <p>
        {why === 'blocked' ? blockedText(reason ?? '') : NOT_NOW[why]}{' '}
        {next ? `The next available time today is ${next}.` : 'Please choose another day.'} For urgent help,
        call us.
      </p>
      {next && (
        <button type="button" className="pub-btn pub-btn--outline" onClick={() => onChoose(next)}>
          Choose {next}
        </button>
      )}
      {business.phone && (
        <a className="pub-btn pub-btn--outline" href={`tel:${business.phone}`}>
          <PhoneIcon /> Call {phoneLabel(business)}
        </a>
      )}
    </div>
  );
}
