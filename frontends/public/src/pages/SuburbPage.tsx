import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { ApiError } from '@tyres/platform/api';
import type { components, paths } from '@tyres/platform/api-types/booking';
import { typedApi } from '@tyres/platform/typed-api';
import { BookButton } from '../components/booking-context';
import { PhoneIcon } from '../components/icons';
import { FAQ, HOURS_LONG, PAY_IN_4, PAYMENT_METHODS, RESPONSE_TIME, SERVICE_CARDS } from '../site/content';
import { useSitePrices } from '../site/prices';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { suburbMeta, suburbNotFoundMeta, type SuburbPageData } from '../site/meta';
import { findLandingSuburb, slugName } from '../site/suburbs';

/** GET /api/suburbs/mobile-tyres-{suburb} (spec section 7): any served suburb beyond the 42 prerendered ones. */
type SuburbApiPage = components['schemas']['SuburbPage'];
const booking = typedApi<paths>();

function defaultCopy(suburb: string, postcode: string, region: string): string {
  return (
    `Need tyres in ${suburb}? Our mobile technicians come to your home, workplace or the roadside anywhere in ` +
    `${suburb} (${postcode}) and across ${region}, with professional equipment to fit and balance new tyres on ` +
    `the spot. We also repair punctures, replace batteries and attend emergency callouts, with a 12-month ` +
    `warranty on fitting and puncture repairs.`
  );
}

function SuburbNotFound() {
  const site = useSite();
  const { pathname } = useLocation();
  useDocumentMeta(suburbNotFoundMeta(site, pathname), site.siteUrl, site.business.name);
  return (
    <div className="pub-notfound">
      <div className="pub-container pub-notfound__inner">
        <h1 className="pub-notfound__title">Service Area Not Found</h1>
        <p className="pub-notfound__text">
          We couldn&apos;t find a page for this area. We cover more than 350 suburbs across Perth and Peel, so
          pick a time and enter your address to check.
        </p>
        <div className="pub-actions pub-actions--center">
          <BookButton className="pub-btn pub-btn--primary pub-btn--lg">Check Service Availability</BookButton>
        </div>
      </div>
    </div>
  );
}

function SuburbContent({ data }: { data: SuburbPageData }) {
  const prices = useSitePrices();
  const site = useSite();
  const { business } = site;
  useDocumentMeta(suburbMeta(site, data), site.siteUrl, business.name);
  const phone = phoneLabel(business);
  const faq = FAQ(data.suburb, data.postcode);
  return (
    <>
      <section className="pub-hero pub-hero--compact" aria-labelledby="pub-suburb-title">
        <div className="pub-container">
          <p className="pub-hero__eyebrow">
            {data.region} · {data.postcode}
          </p>
          <h1 id="pub-suburb-title" className="pub-hero__title">
            Mobile Tyres {data.suburb}
          </h1>
          <p className="pub-hero__lead">
            {data.content ?? defaultCopy(data.suburb, data.postcode, data.region)}
          </p>
          <div className="pub-hero__actions">
            <BookButton className="pub-btn pub-btn--accent pub-btn--lg">Book in {data.suburb}</BookButton>
            {business.phone && (
              <a className="pub-btn pub-btn--ghost-light pub-btn--lg" href={`tel:${business.phone}`}>
                <PhoneIcon /> Call {phone}
              </a>
            )}
          </div>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="pub-suburb-services">
        <div className="pub-container">
          <h2 id="pub-suburb-services" className="pub-section__title">
            Services in {data.suburb}
          </h2>
          <ul className="pub-grid pub-grid--4">
            {SERVICE_CARDS.map((service) => (
              <li key={service.title} className="pub-card pub-service">
                <h3 className="pub-card__title">{service.title}</h3>
                <p className="pub-service__price">{service.price}</p>
                <p className="pub-card__text">{service.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-suburb-coverage">
        <div className="pub-container">
          <h2 id="pub-suburb-coverage" className="pub-section__title">
            Coverage
          </h2>
          <dl className="pub-facts">
            <div className="pub-facts__row">
              <dt>Suburb</dt>
              <dd>{data.suburb}</dd>
            </div>
            <div className="pub-facts__row">
              <dt>Postcode</dt>
              <dd>{data.postcode}</dd>
            </div>
            <div className="pub-facts__row">
              <dt>Region</dt>
              <dd>{data.region}</dd>
            </div>
            <div className="pub-facts__row">
              <dt>Response time</dt>
              <dd>{RESPONSE_TIME}</dd>
            </div>
            <div className="pub-facts__row">
              <dt>Hours</dt>
              <dd>{HOURS_LONG}</dd>
            </div>
          </dl>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="pub-suburb-faq">
        <div className="pub-container pub-prose">
          <h2 id="pub-suburb-faq" className="pub-section__title">
            Frequently asked questions
          </h2>
          <div className="pub-faq">
            {faq.map((item) => (
              <details key={item.q} className="pub-faq__item">
                <summary className="pub-faq__q">{item.q}</summary>
                <p className="pub-faq__a">{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-suburb-pay">
        <div className="pub-container">
          <h2 id="pub-suburb-pay" className="pub-section__title">
            Payment methods
          </h2>
          <ul className="pub-payments pub-payments--light">
            {PAYMENT_METHODS.map((method) => (
              <li key={method} className="pub-payments__item">
                {method}
              </li>
            ))}
          </ul>
          <p className="pub-section__lead">
            {PAY_IN_4}. Prepay online when you book and save {prices.prepaidSaving}, or pay on site.
          </p>
          <div className="pub-actions">
            <BookButton className="pub-btn pub-btn--primary pub-btn--lg">Book Now</BookButton>
          </div>
        </div>
      </section>
    </>
  );
}

/** /suburb/{name} and /mobile-tyres-{name} (spec section 2). */
export function SuburbPage({ name }: { name: string }) {
  const known = findLandingSuburb(name);
  const slug = slugName(name);
  const remote = useQuery({
    queryKey: ['public', 'suburb', slug],
    queryFn: (): Promise<SuburbApiPage> =>
      booking.get('/api/suburbs/{slug}', { params: { slug: `mobile-tyres-${slug}` } }),
    enabled: !known && slug !== '',
  });

  if (known) {
    return <SuburbContent data={{ suburb: known.name, postcode: known.postcode, region: known.region }} />;
  }
  if (slug === '' || (remote.error instanceof ApiError && remote.error.status === 404))
    return <SuburbNotFound />;
  if (remote.data) return <SuburbContent data={remote.data} />;
  if (remote.error) {
    return (
      <div className="pub-notfound" role="alert">
        <div className="pub-container pub-notfound__inner">
          <h1 className="pub-notfound__title">We couldn&apos;t load this page</h1>
          <p className="pub-notfound__text">Please check your connection and try again.</p>
          <div className="pub-actions pub-actions--center">
            <button type="button" className="pub-btn pub-btn--primary" onClick={() => void remote.refetch()}>
              Retry
            </button>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className="pub-page-loading" role="status">
      <span className="pub-spinner" aria-hidden="true" />
      <span>Loading…</span>
    </div>
  );
}
