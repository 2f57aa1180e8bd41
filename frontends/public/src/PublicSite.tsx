import { lazy, Suspense, useEffect, useRef } from 'react';
import { Route, Routes, useLocation, useParams } from 'react-router-dom';
import type { RemoteAppProps } from '@tyres/platform';
import { BookingProvider } from './components/booking-context';
import { SiteLayout } from './components/SiteLayout';
import { SiteProvider, type SiteInfo } from './site/context';
import { AboutPage } from './pages/AboutPage';
import { LandingPage } from './pages/LandingPage';
import { NotFoundPage } from './pages/NotFoundPage';
import PrivacyPage from './pages/PrivacyPage';
import { SuburbPage } from './pages/SuburbPage';
import TermsPage from './pages/TermsPage';

// Privacy and Terms are prerendered, so they are part of the page's script, not lazy: React's prerenderer outlines
// a large Suspense boundary (more than progressiveChunkSize, 12.8 kB of HTML) behind inline <script>s that the
// Content-Security-Policy blocks, which left these pages showing "Loading…" to crawlers and before hydration.
// Pages that are never prerendered (the checkout, with Stripe) load on demand.
const CheckoutPage = lazy(() => import(/* webpackChunkName: "page-checkout" */ './checkout/CheckoutPage'));
// "Manage my booking" (issue 18): opened from the confirmation email's link, never prerendered (personal data).
const ManagePage = lazy(() => import(/* webpackChunkName: "page-manage" */ './manage/ManagePage'));
// "Pay now" (issue 18): an invoice's pay link from its email or PDF, never prerendered.
const PayPage = lazy(() => import(/* webpackChunkName: "page-pay" */ './pay/PayPage'));
// The review request's unsubscribe link (issue 18): never prerendered (the token is personal).
const UnsubscribePage = lazy(
  () => import(/* webpackChunkName: "page-unsubscribe" */ './unsubscribe/UnsubscribePage'),
);

function PageLoading() {
  return (
    <div className="pub-page-loading" role="status">
      <span className="pub-spinner" aria-hidden="true" />
      <span>Loading…</span>
    </div>
  );
}

/** /mobile-tyres-{suburb} (react-router has no partial dynamic segments); anything else one level deep is a 404. */
function SlugRoute() {
  const { slug = '' } = useParams();
  const match = /^mobile-tyres-(.+)$/i.exec(slug);
  return match?.[1] ? <SuburbPage name={match[1]} /> : <NotFoundPage />;
}

function SuburbRoute() {
  const { name = '' } = useParams();
  return <SuburbPage name={name} />;
}

/**
 * Scroll and focus on client-side navigation: a new page starts at the top with focus on <main> (screen
 * readers hear the new page); /#services and /#areas scroll to their section. The first render is left to
 * the browser (prerendered pages, hash links opened directly).
 */
function NavigationEffects() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView?.({ block: 'start' });
        const heading = target.querySelector<HTMLElement>('h2');
        if (heading) {
          heading.setAttribute('tabindex', '-1');
          heading.focus({ preventScroll: true });
        }
        return;
      }
    }
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, hash]);
  return null;
}

export function siteInfoFrom(props: RemoteAppProps): SiteInfo {
  return {
    business: props.business,
    siteUrl: (props.siteUrl ?? (typeof window !== 'undefined' ? window.location.origin : '')).replace(
      /\/+$/,
      '',
    ),
    stripePublishableKey: props.stripePublishableKey ?? null,
  };
}

/** Every public route (spec section 2), without the router (the browser and the prerenderer bring their own). */
export function PublicSite(props: RemoteAppProps) {
  return (
    <SiteProvider value={siteInfoFrom(props)}>
      <BookingProvider>
        <SiteLayout>
          <Routes>
            <Route index element={<LandingPage />} />
            <Route path="about" element={<AboutPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            <Route path="terms" element={<TermsPage />} />
            <Route
              path="checkout/:token"
              element={
                <Suspense fallback={<PageLoading />}>
                  <CheckoutPage />
                </Suspense>
              }
            />
            <Route
              path="manage/:token"
              element={
                <Suspense fallback={<PageLoading />}>
                  <ManagePage />
                </Suspense>
              }
            />
            <Route
              path="unsubscribe/:token"
              element={
                <Suspense fallback={<PageLoading />}>
                  <UnsubscribePage />
                </Suspense>
              }
            />
            <Route
              path="pay/:token"
              element={
                <Suspense fallback={<PageLoading />}>
                  <PayPage />
                </Suspense>
              }
            />
            <Route path="suburb/:name" element={<SuburbRoute />} />
            <Route path=":slug" element={<SlugRoute />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </SiteLayout>
        <NavigationEffects />
      </BookingProvider>
    </SiteProvider>
  );
}
