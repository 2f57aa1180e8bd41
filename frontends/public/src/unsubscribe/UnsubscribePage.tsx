import { useEffect, useRef, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '@tyres/platform/api';
import { PhoneIcon } from '../components/icons';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import type { MetaContext, PageMeta } from '../site/meta';
import { unsubscribe } from './api';

export const UNSUBSCRIBE_MESSAGES = {
  done: 'You have been unsubscribed',
  notValid: 'This unsubscribe link is not valid',
  failed: "We couldn't unsubscribe you just now",
} as const;

/**
 * /unsubscribe/{token}: never indexed, and the token stays out of the canonical link and referrers (like the
 * manage page: the address is the customer's key).
 */
export function unsubscribeMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Unsubscribe | ${ctx.business.name}`,
    description: 'Stop review request emails.',
    keywords: 'unsubscribe',
    canonicalPath: '/unsubscribe',
    noindex: true,
    noReferrer: true,
    ogType: 'website',
    jsonLd: [],
  };
}

/**
 * /unsubscribe/{token} (issue 18, Spam Act 2003): opened from the review request's "Unsubscribe" link. Opening it
 * is the request: the page unsubscribes at once (one click from the email) and says so. Only review requests
 * stop; messages about the customer's bookings keep coming.
 */
export default function UnsubscribePage() {
  const site = useSite();
  const { business } = site;
  const { token = '' } = useParams();
  useDocumentMeta(unsubscribeMeta(site), site.siteUrl, business.name);
  const request = useMutation({ mutationFn: () => unsubscribe(token) });
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || token === '') return;
    sent.current = true;
    request.mutate();
  }, [token, request]);

  const notValid =
    token === '' ||
    (request.error instanceof ApiError && (request.error.status === 404 || request.error.status === 400));
  const callUs = business.phone ? (
    <a className="pub-btn pub-btn--outline" href={`tel:${business.phone}`}>
      <PhoneIcon /> Call {phoneLabel(business)}
    </a>
  ) : null;

  if (notValid)
    return (
      <Panel title={UNSUBSCRIBE_MESSAGES.notValid} role="alert">
        <p className="pub-notfound__text">
          Please use the newest link from our emails, or call us and we will take you off the list.
        </p>
        <div className="pub-actions pub-actions--center">
          <Link to="/" className="pub-btn pub-btn--primary">
            Back to Home
          </Link>
          {callUs}
        </div>
      </Panel>
    );
  if (request.isError)
    return (
      <Panel title={UNSUBSCRIBE_MESSAGES.failed} role="alert">
        <p className="pub-notfound__text">
          {request.error instanceof ApiError && request.error.status === 429
            ? (request.error.serverMessage ?? 'Too many requests. Please try again later.')
            : 'Please check your connection and try again, or call us.'}
        </p>
        <div className="pub-actions pub-actions--center">
          <button type="button" className="pub-btn pub-btn--primary" onClick={() => request.mutate()}>
            Try again
          </button>
          {callUs}
        </div>
      </Panel>
    );
  if (!request.isSuccess)
    return (
      <div className="pub-page-loading" role="status">
        <span className="pub-spinner" aria-hidden="true" />
        <span>Unsubscribing…</span>
      </div>
    );
  return (
    <Panel title={UNSUBSCRIBE_MESSAGES.done} role="status">
      <p className="pub-notfound__text">
        {request.data.contact} will get no more review requests from {business.name}.
      </p>
      <p className="pub-notfound__text">
        We will still send messages about your bookings: confirmations, reminders, changes and receipts.
      </p>
      <div className="pub-actions pub-actions--center">
        <Link to="/" className="pub-btn pub-btn--primary">
          Back to Home
        </Link>
      </div>
    </Panel>
  );
}

function Panel(props: { title: string; role: 'status' | 'alert'; children: ReactNode }) {
  return (
    <div className="pub-notfound" role={props.role}>
      <div className="pub-container pub-notfound__inner">
        <h1 className="pub-notfound__title">{props.title}</h1>
        {props.children}
      </div>
    </div>
  );
}
