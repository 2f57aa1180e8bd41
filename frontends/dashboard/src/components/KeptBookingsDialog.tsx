import { Button, Modal } from 'antd';
import type { KeptBooking } from '../api/types';
import { useUrlParam } from '../hooks/useUrlParam';
import { formatDate } from '../lib/dates';

/** "1 job" / "3 jobs". */
export function jobCount(n: number): string {
  return `${n} ${n === 1 ? 'job' : 'jobs'}`;
}

/**
 * What an admin sees after a block (a slot, a day, a range or a weekly slot) that has jobs in its time: the block only
 * stops new bookings, the jobs already there stay booked. Each is listed by date and slot with a button to open it,
 * so the admin can contact those customers. Shown only when the list is not empty (the success toast says the rest).
 */
export function KeptBookingsDialog({
  kept,
  onClose,
}: {
  kept: readonly KeptBooking[] | null;
  onClose: () => void;
}) {
  const [, setJob] = useUrlParam('job');
  const list = kept ?? [];
  const open = list.length > 0;
  const count = jobCount(list.length);
  return (
    <Modal
      open={open}
      title="Booked jobs kept"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <p id="kept-bookings-summary">
        The block is in place: no new bookings can be made in that time. The {count} already booked in it{' '}
        {list.length === 1 ? 'stays' : 'stay'} booked (not moved or cancelled). Contact{' '}
        {list.length === 1 ? 'that customer' : 'those customers'} if needed.
      </p>
      <ul className="dash-calendar__list" aria-label="Jobs kept in the blocked time">
        {list.map((b) => (
          <li key={`${b.jobId}-${b.date}-${b.slot}`}>
            <Button
              type="link"
              className="dash-link-button"
              onClick={() => setJob(b.jobId)}
              aria-label={`Open job ${b.jobNumber}, ${formatDate(b.date)}, ${b.slot}`}
            >
              {b.jobNumber}
            </Button>{' '}
            {formatDate(b.date)}, {b.slot}
            {b.kind === 'hold' ? ' (held for payment)' : ''}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
