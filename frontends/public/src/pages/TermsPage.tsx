import { Link } from 'react-router-dom';
import { LEGAL_LAST_UPDATED, PREPAID_SAVING, QUOTE_VALIDITY } from '../site/content';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { termsMeta } from '../site/meta';
import { useCardSurcharge } from '../site/surcharge';

/** Static terms (spec section 1), last updated October 2024. */
export default function TermsPage() {
  const site = useSite();
  const { business } = site;
  // The rate in force (billing), after the prerendered (build-time) one.
  const surcharge = useCardSurcharge();
  useDocumentMeta(termsMeta(site), site.siteUrl, business.name);
  return (
    <article className="pub-section">
      <div className="pub-container pub-prose">
        <h1 className="pub-page-title">Terms of Service</h1>
        <p className="pub-muted">Last updated: {LEGAL_LAST_UPDATED}</p>

        <h2>1. About these terms</h2>
        <p>
          These terms apply when you book a mobile tyre, puncture repair, battery or emergency callout service
          through the {business.name} website or by phone. By making a booking you agree to them.
        </p>

        <h2>2. Our platform</h2>
        <p>
          {business.name} is a platform that connects customers with independent service providers. The
          service provider who attends your booking carries out the work; we take your booking, arrange the
          visit and process payments.
        </p>

        <h2>3. Quotes and prices</h2>
        <ul>
          <li>Quotes are valid for {QUOTE_VALIDITY}.</li>
          <li>All prices are in Australian dollars and include GST.</li>
          <li>
            Battery services are quoted on site, and some tyre sizes need a custom quote; no work starts until
            you have accepted the price.
          </li>
          <li>Prepaying online when you book saves {PREPAID_SAVING} on the booking.</li>
        </ul>

        <h2>4. Payment</h2>
        <p>
          You can prepay online by card when you book, or pay on site. A card surcharge of {surcharge.label}{' '}
          applies to card payments made online. Card payments are processed by our payment provider; we never
          see or store your full card number.
        </p>

        <h2>5. Cancellations and no-shows</h2>
        <ul>
          <li>Cancel 24 hours or more before your booking: full refund.</li>
          <li>Cancel between 12 and 24 hours before your booking: 50% refund.</li>
          <li>Cancel less than 12 hours before your booking: no refund.</li>
          <li>
            If we cannot access your vehicle at the booked time (a no-show), the booking is charged in full.
          </li>
          <li>Prepaid bookings are non-refundable once the work has been completed.</li>
        </ul>

        <h2>6. Warranty</h2>
        <p>
          Tyre fitting and puncture repairs carry a 12-month warranty. This is in addition to your rights
          under the Australian Consumer Law, which cannot be excluded.
        </p>

        <h2>7. Your responsibilities</h2>
        <p>
          Please give accurate details of your vehicle, tyre size and location, make sure the vehicle is
          accessible and safe to work on, and tell us about anything that affects the job (for example locking
          wheel nuts).
        </p>

        <h2>8. Governing law</h2>
        <p>These terms are governed by the laws of Western Australia.</p>

        <h2>9. Contact</h2>
        <p>
          Questions about these terms?{' '}
          {business.phone ? (
            <>
              Call us on <a href={`tel:${business.phone}`}>{phoneLabel(business)}</a>
              {business.email ? (
                <>
                  {' '}
                  or email <a href={`mailto:${business.email}`}>{business.email}</a>
                </>
              ) : null}
              .
            </>
          ) : (
            'Contact us.'
          )}{' '}
          See also our <Link to="/privacy">Privacy Policy</Link>.
        </p>
        {business.abn && <p className="pub-muted">ABN {business.abn}</p>}
      </div>
    </article>
  );
}
