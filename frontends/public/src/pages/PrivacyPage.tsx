import { Link } from 'react-router-dom';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { privacyMeta } from '../site/meta';

/**
 * When this policy last changed. The spec's static text dates from October 2024; issue 18 (erasure on request, photo
 * retention) changed what it promises, so it carries its own date now (docs/decisions.md). The terms keep
 * LEGAL_LAST_UPDATED.
 */
export const PRIVACY_LAST_UPDATED = 'November 2026';

/** Static privacy policy. */
export default function PrivacyPage() {
  const site = useSite();
  const { business } = site;
  useDocumentMeta(privacyMeta(site), site.siteUrl, business.name);
  return (
    <article className="pub-section">
      <div className="pub-container pub-prose">
        <h1 className="pub-page-title">Privacy Policy</h1>
        <p className="pub-muted">Last updated: {PRIVACY_LAST_UPDATED}</p>

        <p>
          {business.name} respects your privacy. This policy explains what personal information we collect
          when you book a service, how we use it and the choices you have. We handle personal information in
          line with the Australian Privacy Principles in the Privacy Act 1988 (Cth).
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>Your name, phone number and email address.</li>
          <li>The address where you want the service and your suburb and postcode.</li>
          <li>Your vehicle&apos;s make, model, year and registration, and tyre details.</li>
          <li>Photos you choose to upload of your tyres or vehicle.</li>
          <li>Booking and payment records (we do not see or store your full card number).</li>
        </ul>

        <h2>How we use it</h2>
        <ul>
          <li>To arrange, carry out and follow up your booking, and to contact you about it.</li>
          <li>To pass the details of your job to the service provider who attends it.</li>
          <li>To take payment and issue invoices and receipts.</li>
          <li>To meet our legal obligations, such as tax records.</li>
        </ul>
        <p>We do not sell your personal information or use it for unrelated marketing.</p>

        <h2>Who we share it with</h2>
        <p>
          Only with the service provider who attends your booking, our card payment provider (which processes
          card payments securely), and service providers that host our systems, each for the purpose above.
        </p>

        <h2>Storage and security</h2>
        <p>
          Your information is stored securely and kept only as long as we need it for the purposes above or as
          the law requires.
        </p>
        <p>
          While you fill in the booking form, your answers are kept in your browser for that tab only, so a
          reload does not lose them. They are deleted when the booking is made or the tab is closed.
        </p>

        <h2>How long we keep it</h2>
        <ul>
          <li>
            Photos you upload are deleted 12 months after the job is paid. They are only needed while the job
            and any warranty question about it are open.
          </li>
          <li>
            Invoices and payment records are kept for five years, because Australian tax law (the Taxation
            Administration Act 1953 and the ATO&apos;s record-keeping rules) requires us to keep them.
          </li>
          <li>Everything else is kept while you are our customer, until you ask us to erase it.</li>
        </ul>

        <section aria-labelledby="privacy-erasure">
          <h2 id="privacy-erasure">Erasing your information</h2>
          <p>
            You can ask us to erase your personal information at any time by calling or emailing us (see
            Contact below). Tell us the name, email or phone number you booked with; we may ask you to confirm
            a booking reference so that we erase the right person&apos;s details.
          </p>
          <p>
            Once we confirm your request, your name, phone number, email address, service address, vehicle
            details, notes, photos and the messages we sent you are erased from all of our systems, and any
            &quot;manage my booking&quot; link stops working. This cannot be undone.
          </p>
          <p>
            We keep your invoices for five years because the law requires it, but they no longer show who you
            are: the customer is shown as &quot;Erased customer&quot;. The invoice number, dates, items,
            amounts, GST and payments stay, as the tax records must.
          </p>
        </section>

        <h2>Access and correction</h2>
        <p>
          You can ask to see or correct the personal information we hold about you, or make a privacy
          complaint, by contacting us. If you are not satisfied with our response, you can contact the Office
          of the Australian Information Commissioner.
        </p>

        <h2>Contact</h2>
        <p>
          {business.phone ? (
            <>
              Call <a href={`tel:${business.phone}`}>{phoneLabel(business)}</a>
            </>
          ) : (
            'Contact us'
          )}
          {business.email ? (
            <>
              {' '}
              or email <a href={`mailto:${business.email}`}>{business.email}</a>
            </>
          ) : null}
          . See also our <Link to="/terms">Terms of Service</Link>.
        </p>
      </div>
    </article>
  );
}
