import { lazy, Suspense, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '@tyres/platform/api';
import { injectStyles } from '@tyres/platform/styles';
import css from '../booking/booking.css';
import checkoutCss from '../checkout/checkout.css';
import { TestCardForm } from '../checkout/TestCardForm';
import { phoneLabel, useSite } from '../site/context';
import { formatLongDate, formatMoney } from '../site/format';
import { useDocumentMeta } from '../site/head';
import type { MetaContext, PageMeta } from '../site/meta';
import { createInvoicePaymentIntent, fetchPayInvoice, PAY_MESSAGES, payKey, type PayInvoice } from './api';
import payCss from './pay.css';

injectStyles('booking', css);
injectStyles('checkout', checkoutCss);
injectStyles('pay', payCss);

const StripeCardForm = lazy(() => import(/* webpackChunkName: "stripe-form" */ '../checkout/StripeCardForm'));

/**
 * /pay/{token}: never indexed, and the token stays out of the canonical link, the Open Graph URL and any referrer
 * (the address is the customer's key to paying their invoice).
 */
export function payMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Pay Your Invoice | ${ctx.business.name}`,
    description: 'Pay your mobile tyre invoice securely by card.',
    keywords: 'pay invoice',
    canonicalPath: '/pay',
    noindex: true,
    noReferrer: true,
    ogType: 'website',
    jsonLd: [],
  };
}

function CallLink() {
  const site = useSite();
  if (!site.business.phone) return null;
  return (
    <a href={`tel:${site.business.phone}`} className="pub-btn pub-btn--outline pub-btn--lg">
      Call {phoneLabel(site.business)}
    </a>
  );
}

function LinkNotValid() {
  return (
    <div className="pub-notfound">
      <div className="pub-container pub-notfound__inner">
        <h1 className="pub-notfound__title">{PAY_MESSAGES.linkInvalidTitle}</h1>
        <p className="pub-notfound__text">{PAY_MESSAGES.linkInvalid}</p>
        <div className="pub-actions pub-actions--center">
          <CallLink />
          <Link to="/" className="pub-btn pub-btn--outline pub-btn--lg">
            Back to Home
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The invoice: its lines and totals as the tax invoice states them. */
function InvoiceSummary({ invoice }: { invoice: PayInvoice }) {
  return (
    <section className="py-card" aria-labelledby="py-invoice-title">
      <h2 id="py-invoice-title" className="py-card__title">
        Tax invoice {invoice.invoiceNumber}
      </h2>
      <p className="py-meta">
        Dated {formatLongDate(invoice.invoiceDate)}
        {invoice.dueDate && invoice.status !== 'paid' ? ` · due ${formatLongDate(invoice.dueDate)}` : ''}
      </p>
      <ul className="py-lines" aria-label="Invoice lines">
        {invoice.lines.map((line, i) => (
          <li key={i} className="py-line">
            <span className="py-line__desc">
              {line.description}
              {line.gstFree ? ' (GST-free)' : ''}
              {line.quantity !== 1 && (
                <span className="py-line__qty">
                  {line.quantity} × {formatMoney(line.unitPrice)}
                </span>
              )}
            </span>
            <span className="py-line__amount">{formatMoney(line.totalPrice)}</span>
          </li>
        ))}
      </ul>
      <dl className="co-amounts py-amounts">
        {invoice.amountType === 'exclusive' && (
          <div className="co-amounts__row">
            <dt>Subtotal</dt>
            <dd>{formatMoney(invoice.subtotalAmount)}</dd>
          </div>
        )}
        {invoice.amountType === 'exclusive' && (
          <div className="co-amounts__row">
            <dt>GST</dt>
            <dd>{formatMoney(invoice.gstAmount)}</dd>
          </div>
        )}
        <div className="co-amounts__row co-amounts__row--total">
          <dt>Invoice total</dt>
          <dd>{formatMoney(invoice.totalAmount)}</dd>
        </div>
        {invoice.amountType === 'inclusive' && (
          <div className="co-amounts__row py-amounts__muted">
            <dt>Includes GST</dt>
            <dd>{formatMoney(invoice.gstAmount)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** The card payment: the surcharge line, the amount to pay, and the card form (Stripe, or the labelled test mode). */
function PayPanel({ token, invoice, onPaid }: { token: string; invoice: PayInvoice; onPaid: () => void }) {
  const site = useSite();
  const intent = useQuery({
    queryKey: [...payKey(token), 'intent', invoice.amountToPay],
    queryFn: () => createInvoicePaymentIntent(token),
    retry: false,
  });
  const useStripe =
    Boolean(site.stripePublishableKey) && intent.data !== undefined && intent.data.testMode !== true;
  // Once the payment is prepared, its figures are what the card is charged (the rate stored with it: it can differ
  // from the page's if the price list changed in between); until then, the page's.
  const charged = intent.data;
  const rate = charged?.surchargeRate ?? invoice.surchargeRate;
  const sameAsShown = !charged || charged.surchargeAmount === invoice.surchargeAmount;
  return (
    <section className="co-pay-panel" aria-labelledby="py-pay-title">
      <h2 id="py-pay-title" className="co-summary__title">
        Pay by card
      </h2>
      <dl className="co-amounts">
        <div className="co-amounts__row">
          <dt>Invoice total</dt>
          <dd>{formatMoney(invoice.totalAmount)}</dd>
        </div>
        <div className="co-amounts__row">
          <dt>Card surcharge ({rate})</dt>
          <dd>{formatMoney(charged?.surchargeAmount ?? invoice.surchargeAmount)}</dd>
        </div>
        <div className="co-amounts__row co-amounts__row--total">
          <dt>Amount to pay</dt>
          <dd>{formatMoney(charged?.totalAmount ?? invoice.amountToPay)}</dd>
        </div>
      </dl>
      <p className="bk-hint">
        A card surcharge of {rate} applies to card payments
        {sameAsShown ? <> (it includes GST of {formatMoney(invoice.surchargeGstAmount)})</> : null}.
      </p>
      {intent.isPending ? (
        <p className="bk-hint" role="status">
          <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Preparing secure payment…
        </p>
      ) : intent.isError ? (
        <div className="bk-inline-error" role="alert">
          <p>{PAY_MESSAGES.setupTitle}</p>
          <p>
            {intent.error instanceof ApiError && intent.error.status === 409
              ? (intent.error.serverMessage ?? PAY_MESSAGES.setup)
              : PAY_MESSAGES.setup}
          </p>
          <button type="button" className="pub-btn pub-btn--outline" onClick={() => void intent.refetch()}>
            Try again
          </button>
        </div>
      ) : useStripe && site.stripePublishableKey ? (
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
            onPaid={onPaid}
            returnPath={`/pay/${encodeURIComponent(token)}`}
          />
        </Suspense>
      ) : (
        <TestCardForm token={token} intent={intent.data} onPaid={onPaid} />
      )}
    </section>
  );
}

/** The Perth calendar day of an instant (Perth is UTC+8 all year). */
const perthDay = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);

function PaidState({ invoice, justPaid }: { invoice: PayInvoice; justPaid: boolean }) {
  return (
    <section className="py-state" role="status" aria-labelledby="py-state-title">
      <h2 id="py-state-title" className="py-state__title">
        {justPaid ? PAY_MESSAGES.paidTitle : PAY_MESSAGES.alreadyPaidTitle}
      </h2>
      <p>
        {justPaid
          ? `Invoice ${invoice.invoiceNumber} is paid. A receipt is on its way to your email.`
          : `Invoice ${invoice.invoiceNumber} was paid${invoice.paidAt ? ` on ${formatLongDate(perthDay(invoice.paidAt))}` : ''}. Nothing more to pay – thank you!`}
      </p>
    </section>
  );
}

function PayView({ token, invoice }: { token: string; invoice: PayInvoice }) {
  const queryClient = useQueryClient();
  const [justPaid, setJustPaid] = useState(false);
  const paid = justPaid || invoice.status === 'paid';
  const onPaid = () => {
    setJustPaid(true);
    window.scrollTo?.(0, 0);
    void queryClient.invalidateQueries({ queryKey: payKey(token), exact: true });
  };
  return (
    <div className="pub-section">
      <div className="pub-container">
        <h1 className="pub-page-title">Pay your invoice</h1>
        <p className="pub-muted">
          {invoice.customerFirstName ? `Hi ${invoice.customerFirstName}, thanks` : 'Thanks'} for choosing us.
        </p>
        <div className="py-layout">
          <div>
            {paid ? (
              <PaidState invoice={invoice} justPaid={justPaid} />
            ) : invoice.status === 'cancelled' ? (
              <section className="py-state py-state--cancelled" role="status">
                <h2 className="py-state__title">{PAY_MESSAGES.cancelledTitle}</h2>
                <p>There is nothing to pay. If you think this is a mistake, please call us.</p>
              </section>
            ) : null}
            <InvoiceSummary invoice={invoice} />
          </div>
          {!paid && invoice.status !== 'cancelled' && (
            <PayPanel token={token} invoice={invoice} onPaid={onPaid} />
          )}
        </div>
        <p className="bk-hint">
          Questions about your invoice? <CallLink />
        </p>
      </div>
    </div>
  );
}

/** /pay/{token}: paying an invoice online from the "Pay now" link of its email or PDF (issue 18). */
export default function PayPage() {
  const site = useSite();
  const { token = '' } = useParams();
  useDocumentMeta(payMeta(site), site.siteUrl, site.business.name);
  const invoice = useQuery({
    queryKey: payKey(token),
    queryFn: () => fetchPayInvoice(token),
    enabled: token !== '',
    staleTime: 0,
  });
  const notFound =
    token === '' ||
    (invoice.error instanceof ApiError && (invoice.error.status === 404 || invoice.error.status === 400));
  if (notFound) return <LinkNotValid />;
  if (invoice.isPending) {
    return (
      <div className="pub-page-loading" role="status">
        <span className="pub-spinner" aria-hidden="true" />
        <span>Loading your invoice…</span>
      </div>
    );
  }
  if (invoice.isError) {
    return (
      <div className="pub-notfound" role="alert">
        <div className="pub-container pub-notfound__inner">
          <h1 className="pub-notfound__title">{PAY_MESSAGES.loadFailed}</h1>
          <p className="pub-notfound__text">Please check your connection and try again, or call us.</p>
          <div className="pub-actions pub-actions--center">
            <button type="button" className="pub-btn pub-btn--primary" onClick={() => void invoice.refetch()}>
              Retry
            </button>
            <CallLink />
          </div>
        </div>
      </div>
    );
  }
  return <PayView token={token} invoice={invoice.data} />;
}
