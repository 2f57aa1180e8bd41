import { Link } from 'react-router-dom';
import { BookButton } from '../components/booking-context';
import { CheckIcon, ClockIcon, PhoneIcon, PinIcon, StarIcon } from '../components/icons';
import { PaymentSuccess } from '../components/PaymentSuccess';
import { HIGHLIGHTS, HOURS_SHORT, RATING, RESPONSE_TIME_LONG, SERVICE_CARDS, STATS } from '../site/content';
import { useSitePrices } from '../site/prices';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { landingMeta } from '../site/meta';
import { LANDING_SUBURBS, REGIONS, suburbPath } from '../site/suburbs';

export function LandingPage() {
  const prices = useSitePrices();
  const site = useSite();
  const { business } = site;
  useDocumentMeta(landingMeta(site), site.siteUrl, business.name);
  const phone = phoneLabel(business);

  return (
    <>
      <PaymentSuccess />
      <section className="pub-hero" aria-labelledby="pub-hero-title">
        <div className="pub-container">
          <p className="pub-hero__eyebrow">Perth &amp; Peel · Mobile tyre service</p>
          <h1 id="pub-hero-title" className="pub-hero__title">
            Mobile tyres, puncture repair &amp; batteries. We come to you.
          </h1>
          <p className="pub-hero__lead">
            New tyres fitted and balanced, punctures repaired and batteries sorted at your home, work or the
            roadside. Same or next day service, {HOURS_SHORT}. Prepay online and save {prices.prepaidSaving}.
          </p>
          <div className="pub-hero__actions">
            <BookButton className="pub-btn pub-btn--accent pub-btn--lg">Book Service Now</BookButton>
            {business.phone && (
              <a className="pub-btn pub-btn--ghost-light pub-btn--lg" href={`tel:${business.phone}`}>
                <PhoneIcon /> Contact Us
              </a>
            )}
          </div>
          <p className="pub-hero__rating">
            <span className="pub-stars" aria-hidden="true">
              <StarIcon />
              <StarIcon />
              <StarIcon />
              <StarIcon />
              <StarIcon />
            </span>
            Rated {RATING.value} from {RATING.count} reviews
          </p>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-why-title">
        <div className="pub-container">
          <h2 id="pub-why-title" className="pub-section__title">
            Tyre help without the trip to the shop
          </h2>
          <ul className="pub-grid pub-grid--4">
            {HIGHLIGHTS.map((item) => (
              <li key={item.title} className="pub-card">
                <span className="pub-card__icon" aria-hidden="true">
                  <CheckIcon />
                </span>
                <h3 className="pub-card__title">{item.title}</h3>
                <p className="pub-card__text">{item.text}</p>
              </li>
            ))}
          </ul>
          <ul className="pub-stats" aria-label="At a glance">
            {STATS.map((stat) => (
              <li key={stat.label} className="pub-stats__item">
                <span className="pub-stats__value">{stat.value}</span>
                <span className="pub-stats__label">{stat.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="services" className="pub-section pub-anchor" aria-labelledby="pub-services-title">
        <div className="pub-container">
          <h2 id="pub-services-title" className="pub-section__title">
            Our services
          </h2>
          <p className="pub-section__lead">
            Everything is done on site by an experienced technician with professional equipment. Prices
            include GST.
          </p>
          <ul className="pub-grid pub-grid--4">
            {SERVICE_CARDS.map((service) => (
              <li key={service.title} className="pub-card pub-service">
                <h3 className="pub-card__title">{service.title}</h3>
                <p className="pub-service__price">{service.price}</p>
                <p className="pub-card__text">{service.text}</p>
                <BookButton className="pub-btn pub-btn--outline pub-service__book" serviceType={service.id}>
                  Book {service.title}
                </BookButton>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section pub-section--tint" aria-labelledby="pub-how-title">
        <div className="pub-container">
          <h2 id="pub-how-title" className="pub-section__title">
            At home or at the roadside
          </h2>
          <div className="pub-grid pub-grid--2">
            <article className="pub-card pub-feature">
              <h3 className="pub-card__title">Book Home Service</h3>
              <p className="pub-card__text">
                Pick a day and a two-hour time slot and we fit your tyres in your driveway or at work. Same or
                next day service.
              </p>
              <BookButton className="pub-btn pub-btn--primary">Book Home Service</BookButton>
            </article>
            <article className="pub-card pub-feature">
              <h3 className="pub-card__title">Get Roadside Help</h3>
              <p className="pub-card__text">
                Flat tyre or dead battery? Emergency callout {HOURS_SHORT}, usually with you within{' '}
                {RESPONSE_TIME_LONG}.
              </p>
              <BookButton className="pub-btn pub-btn--primary" serviceType="emergency-callout">
                Get Roadside Help
              </BookButton>
            </article>
          </div>
        </div>
      </section>

      <section id="areas" className="pub-section pub-anchor" aria-labelledby="pub-areas-title">
        <div className="pub-container">
          <h2 id="pub-areas-title" className="pub-section__title">
            Areas we service
          </h2>
          <p className="pub-section__lead">
            <PinIcon /> Over 350 suburbs across Perth and Peel, including:
          </p>
          <div className="pub-areas">
            {REGIONS.map((region) => (
              <div key={region} className="pub-areas__region">
                <h3 className="pub-areas__title">{region}</h3>
                <ul className="pub-areas__list">
                  {LANDING_SUBURBS.filter((s) => s.region === region).map((suburb) => (
                    <li key={suburb.name}>
                      <Link to={suburbPath(suburb.name)} className="pub-areas__link">
                        {suburb.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
          <div className="pub-availability">
            <p className="pub-availability__text">
              <ClockIcon /> Not sure if we cover your street? Pick a time and enter your address.
            </p>
            <BookButton className="pub-btn pub-btn--primary pub-btn--lg">
              Check Service Availability
            </BookButton>
          </div>
        </div>
      </section>

      {business.phone && (
        <section className="pub-section pub-cta" aria-labelledby="pub-cta-title">
          <div className="pub-container pub-cta__inner">
            <h2 id="pub-cta-title" className="pub-cta__title">
              Stuck right now?
            </h2>
            <p className="pub-cta__text">
              Call {phone} ({HOURS_SHORT}) or book online in two minutes.
            </p>
            <div className="pub-actions">
              <a className="pub-btn pub-btn--accent pub-btn--lg" href={`tel:${business.phone}`}>
                <PhoneIcon /> Call {phone}
              </a>
              <BookButton className="pub-btn pub-btn--ghost-light pub-btn--lg">Book Online</BookButton>
            </div>
          </div>
        </section>
      )}
    </>
  );
}
