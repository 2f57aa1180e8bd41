import { Link, useLocation } from 'react-router-dom';
import { PhoneIcon } from '../components/icons';
import { HOURS_LONG } from '../site/content';
import { phoneLabel, useSite } from '../site/context';
import { useDocumentMeta } from '../site/head';
import { notFoundMeta } from '../site/meta';

/** Spec section 2: any other path. */
export function NotFoundPage() {
  const site = useSite();
  const { business } = site;
  const { pathname } = useLocation();
  useDocumentMeta(notFoundMeta(site, pathname), site.siteUrl, business.name);
  return (
    <div className="pub-notfound">
      <div className="pub-container pub-notfound__inner">
        <p className="pub-notfound__code" aria-hidden="true">
          404
        </p>
        <h1 className="pub-notfound__title">Page Not Found</h1>
        <p className="pub-notfound__text">
          Sorry, the page you&apos;re looking for doesn&apos;t exist or has been moved. Let&apos;s get you
          back on track!
        </p>
        <div className="pub-actions pub-actions--center">
          <Link to="/" className="pub-btn pub-btn--primary pub-btn--lg">
            Back to Home
          </Link>
          {business.phone && (
            <a className="pub-btn pub-btn--outline pub-btn--lg" href={`tel:${business.phone}`}>
              <PhoneIcon /> Call {phoneLabel(business)}
            </a>
          )}
        </div>
        <p className="pub-notfound__hours">Open {HOURS_LONG}</p>
      </div>
    </div>
  );
}
