import { lazy, Suspense, useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router-dom';
import { ApiError } from '@tyres/platform/api';
import { injectStyles } from '@tyres/platform/styles';
import { useToast } from '@tyres/platform/toast';
import css from '../booking/booking.css';
import { BookButton } from '../components/booking-context';
import { serviceLabel } from '@tyres/kernel';
import { phoneLabel, useSite } from '../site/context';
import { formatLongDate, formatMoney } from '../site/format';
import { useDocumentMeta } from '../site/head';
import { checkoutMeta } from '../site/meta';
import { createPaymentIntent, fetchBooking, PAYMENT_MESSAGES, type BookingByToken } from './api';
import checkoutCss from './checkout.css';
import { TestCardForm } from './TestCardForm';

injectStyles('booking', css);
injectStyles('checkout', checkoutCss);

const StripeCardForm = lazy(() => import(/* webpackChunkName: "stripe-form" */ './StripeCardForm'));

function Summary({ booking }: { booking: BookingByToken }) {
  const { customer, job, vehicle } = booking;
  return (
    <section className="co-summary" aria-labelledby="co-summary-title">
      <h2 id="co-summary-title" className="co-summary__title">
        Order summary
      </h2>
      <dl className="bk-summary">
        <div className="bk-summary__row">
          <dt>Name</dt>
          <dd>{customer.name}</dd>
        </div>
        <div className="bk-summary__row">
          <dt>Email</dt>
          <dd>{customer.email}</dd>
        </div>
        <div className="bk-summary__row">
          <dt>Phone</dt>
          <dd>{customer.phone}</dd>
        </div>
        <div className="bk-summary__row">
          <dt>Service</dt>
          <dd>{serviceLabel(booking.serviceType)}</dd>
        </div>
        <div className="bk-summary__row">
          <dt>Date</dt>
          <dd>
            {formatLongDate(job.scheduledDate)}, {job.timeSlot}
          </dd>
        </div>
        <div className="bk-summary__row">
          <dt>Address</dt>
          <dd>
            {job.address}, {job.suburb} {job.postcode}
          </dd>
        </div>
        <div className="bk-summary__row">
          <dt>Vehicle</dt>
          <dd>
            {vehicle.year} {vehicle.make} {vehicle.model}, {vehicle.registration}
          </dd>
        </div>
        <div className="bk-summary__row co-summary__total">
          <dt>Total</dt>
          <dd>{formatMoney(booking.amount)}</dd>
        </div>
      </dl>
    </section>
  );
}

function NotFound() {
  return (
    <div className="pub-notfound">
      <div className="pub-container pub-notfound__inner">
        <h1 className="pub-notfound__title">{PAYMENT_MESSAGES.notFound}</h1>
        <p className="pub-notfound__text">
          This payment link is not valid or has expired. Unpaid bookings are held for a limited time; please
          book again.
        </p>
        <div className="pub-actions pub-actions--center">
          <BookButton className="pub-btn pub-btn--primary pub-btn--lg">Book Again</BookButton>
          <Link to="/" className="pub-btn pub-btn--outline pub-btn--lg">
            Back to Home
          </Link>
        </div>
      </div>
    </div>
  );
}

/** /checkout/{bookingToken}: card payment of a prepaid booking (spec section 2). */
export default function CheckoutPage() {
  const site = useSite();
  const { token = '' } = useParams();
  const { pathname } = useLocation();
  const { toast } = useToast();
  useDocumentMeta(checkoutMeta(site, pathname), site.siteUrl, site.business.name);

  const booking = useQuery({
    queryKey: ['public', 'booking-token', token],
    queryFn: () => fetchBooking(token),
    enabled: token !== '',
  });
  const intent = useQuery({
    queryKey: ['public', 'payment-intent', token],
    queryFn: () => createPaymentIntent(token),
    enabled: booking.isSuccess,
  });

  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (intent.error && reported.current !== intent.error) {
      reported.current = intent.error;
      const conflict = intent.error instanceof ApiError && intent.error.status === 409;
      toast({
        title: PAYMENT_MESSAGES.setupTitle,
        description: conflict
          ? ((intent.error as ApiError).serverMessage ?? PAYMENT_MESSAGES.setup)
          : PAYMENT_MESSAGES.setup,
        variant: 'destructive',
      });
    }
  }, [intent.error, toast]);

  const notFound =
    token === '' ||
    (booking.error instanceof ApiError && (booking.error.status === 404 || booking.error.status === 400));
  if (notFound) return <NotFound />;

  if (booking.isPending) {
    return (
      <div className="pub-page-loading" role="status">
        <span className="pub-spinner" aria-hidden="true" />
        <span>Loading your booking…</span>
      </div>
    );
  }
  if (booking.isError) {
    return (
      <div className="pub-notfound" role="alert">
        <div className="pub-container pub-notfound__inner">
          <h1 className="pub-notfound__title">We couldn&apos;t load your booking</h1>
          <p className="pub-notfound__text">Please check your connection and try again.</p>
          <div className="pub-actions pub-actions--center">
            <button type="button" className="pub-btn pub-btn--primary" onClick={() => void booking.refetch()}>
              Retry
            </button>
          </div>
        </div>
      </div>
    );
  }

  const data = booking.data;
  const paid = data.paymentStatus === 'paid';
  const useStripe =
    Boolean(site.stripePublishableKey) && intent.data !== undefined && intent.data.testMode !== true;
  return (
    <div className="pub-section">
      <div className="pub-container co-layout">
        <div className="co-main">
          <h1 className="pub-page-title">Secure checkout</h1>
          <p className="pub-muted">Pay for your booking by card to confirm it.</p>
          <Summary booking={data} />
        </div>
        <section className="co-pay-panel" aria-labelledby="co-pay-title">
          <h2 id="co-pay-title" className="co-summary__title">
            Card payment
          </h2>
          {paid ? (
            <p className="bk-hint">This booking has already been paid. Thank you!</p>
          ) : intent.isPending ? (
            <p className="bk-hint" role="status">
              <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Preparing secure payment…
            </p>
          ) : intent.isError ? (
            <div className="bk-inline-error" role="alert">
              <p>{PAYMENT_MESSAGES.setupTitle}</p>
              <p>
                {intent.error instanceof ApiError && intent.error.status === 409
                  ? (intent.error.serverMessage ?? PAYMENT_MESSAGES.setup)
                  : PAYMENT_MESSAGES.setup}
              </p>
              <button
                type="button"
                className="pub-btn pub-btn--outline"
                onClick={() => void intent.refetch()}
              >
                Try again
              </button>
            </div>
          ) : (
            <>
              <dl className="co-amounts">
                <div className="co-amounts__row">
                  <dt>Booking</dt>
                  <dd>{formatMoney(intent.data.originalAmount)}</dd>
                </div>
                <div className="co-amounts__row">
                  <dt>Card surcharge ({intent.data.surchargeRate})</dt>
                  <dd>{formatMoney(intent.data.surchargeAmount)}</dd>
                </div>
                <div className="co-amounts__row co-amounts__row--total">
                  <dt>Total to pay</dt>
                  <dd>{formatMoney(intent.data.totalAmount)}</dd>
                </div>
              </dl>
              <p className="bk-hint">
                A card surcharge of {intent.data.surchargeRate} applies to card payments.
              </p>
              {useStripe && site.stripePublishableKey ? (
                <Suspense
                  fallback={
                    <p className="bk-hint" role="status">
                      Loading the card form…
                    </p>
                  }
                >
                  <StripeCardForm
                    publishableKey={site.stripePublishableKey}
                    token={token}
                    intent={intent.data}
                  />
                </Suspense>
              ) : (
                <TestCardForm token={token} intent={intent.data} />
              )}
            </>
          )}
          {site.business.phone && (
            <p className="bk-hint">
              Questions? Call <a href={`tel:${site.business.phone}`}>{phoneLabel(site.business)}</a>.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}
