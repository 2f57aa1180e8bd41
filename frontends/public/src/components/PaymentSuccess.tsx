import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { serviceLabel } from '@tyres/kernel';
import { fetchBooking } from '../checkout/api';
import { CheckIcon } from './icons';
import { formatLongDate, formatMoney } from '../site/format';
import { useHydrated } from '../site/hydrated';

function readPaymentParams(): { token: string } | null {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('booking');
  if (params.get('payment') !== 'success' || !token) return null;
  // Stripe adds redirect_status after a redirect (3-D Secure): only "succeeded" is a success.
  const status = params.get('redirect_status');
  if (status && status !== 'succeeded') return null;
  return { token };
}

/**
 * The landing page after a card payment (/?payment=success&booking={token}, spec section 4): the booking is
 * confirmed. Rendered only after hydration (the prerendered page is the same for every query string).
 */
export function PaymentSuccess() {
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState(false);
  const params = hydrated ? readPaymentParams() : null;
  const token = params?.token ?? null;
  const heading = useRef<HTMLHeadingElement>(null);
  const booking = useQuery({
    queryKey: ['public', 'booking-token', token],
    queryFn: () => fetchBooking(token ?? ''),
    enabled: token !== null && !dismissed,
  });

  useEffect(() => {
    if (token) heading.current?.focus();
  }, [token]);

  if (!token || dismissed) return null;
  const data = booking.data;
  return (
    <section className="pub-confirmed" aria-labelledby="pub-confirmed-title">
      <div className="pub-container pub-confirmed__inner">
        <span className="pub-confirmed__icon" aria-hidden="true">
          <CheckIcon />
        </span>
        <div>
          <h2 id="pub-confirmed-title" className="pub-confirmed__title" tabIndex={-1} ref={heading}>
            Payment successful – your booking is confirmed
          </h2>
          {data ? (
            <p className="pub-confirmed__text">
              {serviceLabel(data.serviceType)} on {formatLongDate(data.job.scheduledDate)},{' '}
              {data.job.timeSlot}, at {data.job.address}, {data.job.suburb}. Paid online:{' '}
              {formatMoney(data.amount)} plus card surcharge.
            </p>
          ) : (
            <p className="pub-confirmed__text">
              Thank you. We have received your payment and your booking is confirmed.
            </p>
          )}
          <button
            type="button"
            className="pub-btn pub-btn--ghost pub-confirmed__close"
            onClick={() => {
              setDismissed(true);
              window.history.replaceState(
                window.history.state,
                '',
                window.location.pathname + window.location.hash,
              );
            }}
          >
            Dismiss
          </button>
        </div>
      </div>
    </section>
  );
}
