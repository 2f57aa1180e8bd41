import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { HOURS_LONG, PAY_IN_4, PAYMENT_METHODS } from '../site/content';
import { phoneLabel, useSite } from '../site/context';
import { BookButton } from './booking-context';
import { CallFab } from './CallFab';
import { CloseIcon, MenuIcon, PhoneIcon } from './icons';

const NAV_LINKS = [
  { to: '/#services', label: 'Services' },
  { to: '/#areas', label: 'Areas' },
  { to: '/about', label: 'About' },
] as const;

function Logo({ name }: { name: string }) {
  return (
    <Link to="/" className="pub-logo">
      <span className="pub-logo__mark" aria-hidden="true" />
      <span className="pub-logo__text">{name}</span>
    </Link>
  );
}

/** Small screens: the links sit in a right-side slide-out menu (a modal <dialog>: focus stays inside, Esc closes). */
function MobileMenu() {
  const { business } = useSite();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  // Closes only on a change from open to closed: on mount the dialog may already be open natively.
  const wasOpen = useRef(false);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
    } else if (!open && wasOpen.current && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
    }
    wasOpen.current = open;
  }, [open]);

  // Any navigation (a link in the menu, browser back) closes the menu: state adjusted while rendering when the
  // location changes (https://react.dev/learn/you-might-not-need-an-effect#adjusting-some-state-when-a-prop-changes).
  const place = `${location.pathname}${location.hash}`;
  const [openAt, setOpenAt] = useState(place);
  if (openAt !== place) {
    setOpenAt(place);
    setOpen(false);
  }

  // A prerendered page's menu may have been opened before React attached (shell/src/early-intent.ts).
  useEffect(() => {
    if (dialog.current?.open) setOpen(true);
  }, []);

  const close = () => setOpen(false);
  return (
    <>
      <button
        type="button"
        className="pub-menu-button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls="pub-mobile-menu"
        data-early-open="pub-mobile-menu"
        onClick={() => setOpen(true)}
      >
        <MenuIcon />
      </button>
      {/* A click on the backdrop is a pointer-only shortcut: keyboard users close the menu with Esc (onCancel) or
          the Close button, so the dialog element needs no key handler of its own. */}
      {/* eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions */}
      <dialog
        id="pub-mobile-menu"
        ref={dialog}
        className="pub-drawer"
        aria-label="Menu"
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside the panel) closes it.
          if (event.target === event.currentTarget) close();
        }}
      >
        <div className="pub-drawer__panel">
          <div className="pub-drawer__head">
            <span className="pub-drawer__title">Menu</span>
            <button
              type="button"
              className="pub-icon-button"
              aria-label="Close menu"
              data-early-close="pub-mobile-menu"
              onClick={close}
            >
              <CloseIcon />
            </button>
          </div>
          <nav aria-label="Main" className="pub-drawer__nav">
            {NAV_LINKS.map((link) => (
              <Link key={link.to} to={link.to} className="pub-drawer__link" onClick={close}>
                {link.label}
              </Link>
            ))}
          </nav>
          <div className="pub-drawer__actions">
            <BookButton className="pub-btn pub-btn--primary pub-btn--block" onOpen={close}>
              Book Now
            </BookButton>
            {business.phone && (
              <a
                className="pub-btn pub-btn--outline pub-btn--block"
                href={`tel:${business.phone}`}
                onClick={close}
              >
                <PhoneIcon /> Call Now
              </a>
            )}
          </div>
        </div>
      </dialog>
    </>
  );
}

export function SiteLayout({ children }: { children: ReactNode }) {
  const { business } = useSite();
  const phone = phoneLabel(business);
  return (
    <div className="pub-site">
      <a className="pub-skip" href="#main">
        Skip to content
      </a>
      <header className="pub-header">
        <div className="pub-container pub-header__inner">
          <Logo name={business.name} />
          <nav aria-label="Main" className="pub-nav">
            {NAV_LINKS.map((link) => (
              <Link key={link.to} to={link.to} className="pub-nav__link">
                {link.label}
              </Link>
            ))}
          </nav>
          <div className="pub-header__actions">
            {business.phone && (
              <a className="pub-header__phone" href={`tel:${business.phone}`}>
                <PhoneIcon size={18} /> {phone}
              </a>
            )}
            <BookButton className="pub-btn pub-btn--primary pub-header__book">Book Now</BookButton>
            <MobileMenu />
          </div>
        </div>
      </header>

      <main className="pub-main" id="main" tabIndex={-1}>
        {children}
      </main>

      <footer className="pub-footer">
        <div className="pub-container pub-footer__inner">
          <div className="pub-footer__col">
            <p className="pub-footer__name">{business.name}</p>
            <p className="pub-footer__text">
              Mobile tyre fitting, puncture repair and battery service across Perth and Peel. We come to you.
            </p>
            {business.abn && <p className="pub-footer__text">ABN {business.abn}</p>}
          </div>
          <div className="pub-footer__col">
            <h2 className="pub-footer__heading">Contact</h2>
            <ul className="pub-footer__list">
              {business.phone && (
                <li>
                  Phone: <a href={`tel:${business.phone}`}>{phone}</a>
                </li>
              )}
              {business.email && (
                <li>
                  Email: <a href={`mailto:${business.email}`}>{business.email}</a>
                </li>
              )}
              <li>Hours: {HOURS_LONG}</li>
              <li>Service area: Perth Metro, Peel Region, Hills &amp; Extended</li>
            </ul>
          </div>
          <div className="pub-footer__col">
            <h2 className="pub-footer__heading">We accept</h2>
            <ul className="pub-payments" aria-label="Accepted payment methods">
              {PAYMENT_METHODS.map((method) => (
                <li key={method} className="pub-payments__item">
                  {method}
                </li>
              ))}
            </ul>
            <p className="pub-footer__text">{PAY_IN_4}.</p>
          </div>
          <nav aria-label="Legal" className="pub-footer__links">
            <Link to="/privacy">Privacy Policy</Link>
            <Link to="/terms">Terms of Service</Link>
          </nav>
          <p className="pub-footer__copy">
            © <span suppressHydrationWarning>{new Date().getFullYear()}</span> {business.name}. All prices
            include GST.
          </p>
        </div>
      </footer>

      {business.phone && <CallFab phone={business.phone} phoneText={phone ?? business.phone} />}
    </div>
  );
}
