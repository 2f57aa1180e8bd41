import { BookButton } from '../components/booking-context';
import { PhoneIcon } from '../components/icons';
import { HOURS_LONG, RESPONSE_TIME_LONG, STATS, NEW_TYRES_FROM } from '../site/content';
import { useSitePrices, type SitePrices } from '../site/prices';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { aboutMeta } from '../site/meta';

const VALUES = [
  {
    title: 'Customer First',
    text: 'We fit around your day: at home, at work or at the roadside, with clear prices before we start.',
  },
  {
    title: 'Quality Guaranteed',
    text: 'Quality tyres, careful fitting and balancing, and a 12-month warranty on fitting and puncture repairs.',
  },
  {
    title: 'Convenience',
    text: 'Book online in a couple of minutes, pay online (and save {saving}) or on site, and stay where you are.',
  },
  {
    title: 'Professional Service',
    text: 'Experienced technicians with professional equipment, on time and tidy.',
  },
];

/** What we do, with the prices in force (useSitePrices). */
const whatWeDo = (prices: SitePrices) => [
  `New tyres supplied, fitted and balanced on site (from ${NEW_TYRES_FROM} per tyre)`,
  `Puncture repairs (${prices.punctureRepair}) with a 12-month warranty`,
  'Battery testing and replacement, quoted on site',
  `Emergency roadside callouts (${prices.calloutFee}), ${HOURS_LONG}`,
];

export function AboutPage() {
  const prices = useSitePrices();
  const site = useSite();
  const { business } = site;
  useDocumentMeta(aboutMeta(site), site.siteUrl, business.name);
  const phone = phoneLabel(business);
  return (
    <>
      <section className="pub-hero pub-hero--compact" aria-labelledby="pub-about-title">
        <div className="pub-container">
          <p className="pub-hero__eyebrow">About us</p>
          <h1 id="pub-about-title" className="pub-hero__title">
            Mobile tyre specialists for Perth and Peel
          </h1>
          <p className="pub-hero__lead">
            For more than 20 years we have been bringing the tyre shop to our customers: to driveways, car
            parks and roadsides across more than 350 suburbs.
          </p>
          <ul className="pub-stats pub-stats--light" aria-label="At a glance">
            {STATS.map((stat) => (
              <li key={stat.label} className="pub-stats__item">
                <span className="pub-stats__value">{stat.value}</span>
                <span className="pub-stats__label">{stat.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="pub-story-title">
        <div className="pub-container pub-prose">
          <h2 id="pub-story-title" className="pub-section__title">
            Our story
          </h2>
          <p>
            {business.name} started with a simple idea: nobody should lose half a day waiting at a tyre shop.
            With more than two decades in the tyre trade, our technicians know that the fastest tyre service
            is the one that comes to you.
          </p>
          <p>
            Today our fully equipped service vans cover Perth Metro, the Peel Region and the Hills, fitting
            and balancing new tyres, repairing punctures and replacing batteries wherever our customers are.
            Rated 4.8 from 150 reviews, we are proud that most of our work comes from referrals.
          </p>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-values-title">
        <div className="pub-container">
          <h2 id="pub-values-title" className="pub-section__title">
            Our values
          </h2>
          <ul className="pub-grid pub-grid--4">
            {VALUES.map((value) => (
              <li key={value.title} className="pub-card">
                <h3 className="pub-card__title">{value.title}</h3>
                <p className="pub-card__text">{value.text.replace('{saving}', prices.prepaidSaving)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="pub-ways-title">
        <div className="pub-container">
          <h2 id="pub-ways-title" className="pub-section__title">
            Two ways we help
          </h2>
          <div className="pub-grid pub-grid--2">
            <article className="pub-card pub-feature">
              <h3 className="pub-card__title">Home service</h3>
              <p className="pub-card__text">
                Book a two-hour time slot and we come to your home or workplace. Same or next day service,
                Monday to Friday.
              </p>
              <BookButton className="pub-btn pub-btn--primary">Book Home Service</BookButton>
            </article>
            <article className="pub-card pub-feature">
              <h3 className="pub-card__title">Emergency roadside</h3>
              <p className="pub-card__text">
                Flat tyre or flat battery on the road? Emergency callout {HOURS_LONG}, typically within{' '}
                {RESPONSE_TIME_LONG}.
              </p>
              <BookButton className="pub-btn pub-btn--primary" serviceType="emergency-callout">
                Get Roadside Help
              </BookButton>
            </article>
          </div>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-do-title">
        <div className="pub-container pub-prose">
          <h2 id="pub-do-title" className="pub-section__title">
            What we do
          </h2>
          <ul className="pub-checklist">
            {whatWeDo(prices).map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p>All prices include GST. Prepay online when you book and save {prices.prepaidSaving}.</p>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="pub-contact-title">
        <div className="pub-container">
          <h2 id="pub-contact-title" className="pub-section__title">
            Contact us
          </h2>
          <dl className="pub-facts">
            {business.phone && (
              <div className="pub-facts__row">
                <dt>Phone</dt>
                <dd>
                  <a href={`tel:${business.phone}`}>{phone}</a>
                </dd>
              </div>
            )}
            <div className="pub-facts__row">
              <dt>Service areas</dt>
              <dd>Perth Metro, Peel Region, Hills &amp; Extended (350+ suburbs)</dd>
            </div>
            <div className="pub-facts__row">
              <dt>Hours</dt>
              <dd>{HOURS_LONG}</dd>
            </div>
          </dl>
          <div className="pub-actions">
            <BookButton className="pub-btn pub-btn--primary pub-btn--lg">Book a Service</BookButton>
            {business.phone && (
              <a className="pub-btn pub-btn--outline pub-btn--lg" href={`tel:${business.phone}`}>
                <PhoneIcon /> Call {phone}
              </a>
            )}
          </div>
        </div>
      </section>
    </>
  );
}
