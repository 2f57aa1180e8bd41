import { Alert } from 'antd';
import { CANCELLATION_BAND_LABEL, formatAud, type CancellationBand } from '@tyres/kernel';
import { useBookingCancellation } from '../api/bookings-staff';
import type { Job } from '../api/types';
import { formatTimestamp } from '../lib/dates';
import { cents } from '../lib/money';

const isBand = (value: string | null): value is CancellationBand =>
  value !== null && value in CANCELLATION_BAND_LABEL;

/**
 * A cancelled job's cancellation as booking recorded it (admin): when, by whom, why, and the policy's terms applied
 * (refund, fee, waived). Booking keeps that record; the job only knows it was cancelled. A job cancelled before the
 * policy existed (or without it) has no terms: only the time is shown.
 */
export function CancellationRecord({ job }: { job: Job }) {
  const booking = useBookingCancellation(job.id, true);
  const record = booking.data?.cancelled;
  const band = record?.band ?? null;
  const refund = record?.refund ? cents(record.refund) : 0n;
  const by = record?.cancelledBy === 'customer' ? ' by the customer' : record?.cancelledBy ? ' by staff' : '';
  // A no-show (staff marked the customer absent once the slot had started) is charged in full, not under a band.
  const noShow = record?.kind === 'no_show';
  return (
    <section className="dash-detail__section" aria-labelledby="jd-cancellation">
      <h3 id="jd-cancellation" className="dash-detail__heading">
        {noShow ? 'No-Show' : 'Cancellation'}
      </h3>
      {booking.isError && (
        <Alert type="warning" showIcon title="The cancellation details could not be loaded" />
      )}
      <dl className="dash-facts">
        <div>
          <dt>{noShow ? 'Marked no-show' : 'Cancelled'}</dt>
          <dd>
            {formatTimestamp(record?.cancelledAt ?? job.cancelledAt)}
            {by}
          </dd>
        </div>
        {record?.reason && (
          <div>
            <dt>Reason</dt>
            <dd>{record.reason}</dd>
          </div>
        )}
        {noShow ? (
          <div>
            <dt>Policy</dt>
            <dd>No-show: charged in full</dd>
          </div>
        ) : (
          isBand(band) && (
            <div>
              <dt>Policy</dt>
              <dd>{CANCELLATION_BAND_LABEL[band]}</dd>
            </div>
          )
        )}
        {refund > 0n && (
          <div>
            <dt>Refund</dt>
            <dd>{formatAud(refund)}</dd>
          </div>
        )}
        {record?.fee && (
          <div>
            <dt>{noShow ? 'Charge' : 'Fee'}</dt>
            <dd>
              {formatAud(cents(record.fee))}
              {record.feeWaived ? ' (waived)' : ''}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
