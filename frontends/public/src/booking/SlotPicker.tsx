import { EMERGENCY_RESPONSE_TIME, emergencySlot, isSlotPast, perthToday, TIME_SLOTS } from '@tyres/kernel';
import { PhoneIcon } from '../components/icons';
import { phoneLabel, useSite } from '../site/context';
import { useTimeSlots, type TimeSlotState } from './api';
import { MESSAGES } from './schema';

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
  const now = new Date();
  // Emergency callout (issue 19): today's slot a technician sent now reaches in 30-60 minutes, even under way.
  const emergency = !current && date !== '' && date === perthToday(now) ? emergencySlot(now) : undefined;
  const emergencyState = emergency && slots.data?.find((s) => s.slot === emergency.slot);
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
            const isEmergency = emergency?.slot === slot;
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
      {emergency && emergencyState && !emergencyState.isAvailable && (
        <EmergencyFull slots={slots.data ?? []} after={emergency.slot} onChoose={onChange} />
      )}
    </fieldset>
  );
}

/**
 * Today has no technician free for an emergency callout: the next free slot today (a button choosing it), else
 * "another day", and the call button (issue 19).
 */
function EmergencyFull({
  slots,
  after,
  onChoose,
}: {
  slots: TimeSlotState[];
  after: string;
  onChoose: (slot: string) => void;
}) {
  const { business } = useSite();
  const order = TIME_SLOTS.map((s) => s.slot as string);
  const next = slots.find((s) => s.isAvailable && order.indexOf(s.slot) > order.indexOf(after));
  return (
    <div className="bk-inline-error" role="note">
      <p>
        No technician is free for an emergency callout today ({EMERGENCY_RESPONSE_TIME}).{' '}
        {next ? `The next available time today is ${next.slot}.` : 'Please choose another day.'} For urgent
        help, call us.
      </p>
      {next && (
        <button type="button" className="pub-btn pub-btn--outline" onClick={() => onChoose(next.slot)}>
          Choose {next.slot}
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
