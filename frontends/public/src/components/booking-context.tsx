import {
  Component,
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactNode,
} from 'react';
import type { ServiceType } from '@tyres/kernel';
import { takeEarlyIntent } from '../site/early-intent';
import {
  dialogEntryOnTop,
  markDialogClosed,
  markDialogOpen,
  shouldReopenAfterReload,
} from './booking-history';
import { phoneLabel, useSite } from '../site/context';

/**
 * The booking dialog is not part of the page's script: it is fetched when a booking button is first pressed
 * (and preloaded as soon as one is hovered, focused or touched), so the landing page stays light. Once opened it
 * stays mounted, so closing it half way and opening it again keeps what was entered.
 */
const loadDialog = () => import(/* webpackChunkName: "booking-dialog" */ '../booking/BookingDialog');
const BookingDialog = lazy(loadDialog);

let preloading: Promise<unknown> | null = null;
export function preloadBookingDialog(): void {
  preloading ??= loadDialog().catch(() => {
    preloading = null;
  });
}

export interface OpenOptions {
  serviceType?: ServiceType;
}

interface BookingApi {
  open(options?: OpenOptions): void;
}

const BookingContext = createContext<BookingApi>({ open: () => undefined });

export function useBooking(): BookingApi {
  return useContext(BookingContext);
}

class DialogBoundary extends Component<
  { children: ReactNode; onClose: () => void; phone: string | null; tel: string | null },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('[public] booking dialog failed to load', error);
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="pub-dialog-loading" role="alert">
        <div className="pub-dialog-loading__box">
          <p className="pub-dialog-loading__title">Sorry, the booking form couldn&apos;t be loaded.</p>
          <p>Please check your connection and try again{this.props.tel ? ', or call us' : ''}.</p>
          <div className="pub-actions">
            <button
              type="button"
              className="pub-btn pub-btn--primary"
              onClick={() => {
                preloading = null;
                this.setState({ failed: false });
              }}
            >
              Retry
            </button>
            {this.props.tel && (
              <a className="pub-btn pub-btn--outline" href={`tel:${this.props.tel}`}>
                Call {this.props.phone}
              </a>
            )}
            <button type="button" className="pub-btn pub-btn--ghost" onClick={this.props.onClose}>
              Close
            </button>
          </div>
        </div>
      </div>
    );
  }
}

function DialogLoading() {
  return (
    <div className="pub-dialog-loading" role="status">
      <div className="pub-dialog-loading__box">
        <span className="pub-spinner" aria-hidden="true" />
        <span>Loading the booking form…</span>
      </div>
    </div>
  );
}

export function BookingProvider({ children }: { children: ReactNode }) {
  const { business } = useSite();
  const [state, setState] = useState<{ open: boolean; started: boolean; options: OpenOptions; seq: number }>({
    open: false,
    started: false,
    options: {},
    seq: 0,
  });
  const opener = useRef<HTMLElement | null>(null);

  const isOpen = useRef(false);

  const open = useCallback((options: OpenOptions = {}) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    isOpen.current = true;
    markDialogOpen();
    setState((s) => ({ open: true, started: true, options, seq: s.seq + 1 }));
  }, []);
  const hide = useCallback(() => {
    isOpen.current = false;
    setState((s) => ({ ...s, open: false }));
    // Back to the button that opened the dialog (keyboard and screen-reader users keep their place).
    const target = opener.current;
    if (target?.isConnected) requestAnimationFrame(() => target.focus());
  }, []);
  const close = useCallback(
    (options?: { navigating?: boolean }) => {
      if (!isOpen.current) return;
      markDialogClosed(options);
      hide();
    },
    [hide],
  );
  const api = useMemo(() => ({ open }), [open]);

  // The phone's Back button (or gesture) closes the dialog rather than leaving the page.
  useEffect(() => {
    const onPop = () => {
      if (isOpen.current && !dialogEntryOnTop()) {
        markDialogClosed({ navigating: true });
        hide();
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [hide]);

  // A booking button pressed before the page was hydrated (the shell records it, see shell/src/early-intent.ts)
  // opens the dialog as soon as the site is live; so does a reload while the dialog was open.
  // This reads state kept outside React (the shell's record, sessionStorage) once the page is live; it cannot be
  // the initial state, because a prerendered page hydrates with the dialog closed (the server's HTML).
  useEffect(() => {
    const intent = takeEarlyIntent();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above: opening after hydration is the point
    if (intent) open({ serviceType: intent.serviceType as ServiceType | undefined });
    else if (shouldReopenAfterReload()) open();
  }, [open]);

  return (
    <BookingContext.Provider value={api}>
      {children}
      {state.started && (
        <DialogBoundary onClose={close} phone={phoneLabel(business)} tel={business.phone}>
          <Suspense fallback={state.open ? <DialogLoading /> : null}>
            <BookingDialog
              open={state.open}
              onClose={close}
              initialService={state.options.serviceType}
              openSeq={state.seq}
            />
          </Suspense>
        </DialogBoundary>
      )}
    </BookingContext.Provider>
  );
}

type BookButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  serviceType?: ServiceType;
  onOpen?: () => void;
};

/** A button that opens the booking dialog (and starts fetching it on hover, focus or touch). */
export function BookButton({ serviceType, onOpen, onClick, children, ...rest }: BookButtonProps) {
  const { open } = useBooking();
  return (
    <button
      type="button"
      data-intent="book"
      data-service={serviceType}
      {...rest}
      onPointerEnter={preloadBookingDialog}
      onTouchStart={preloadBookingDialog}
      onFocus={preloadBookingDialog}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented) return;
        onOpen?.();
        open({ serviceType });
      }}
    >
      {children}
    </button>
  );
}
