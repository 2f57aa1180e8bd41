import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import {
  isTimeSlot,
  maxPhotos,
  maxVehicleYear,
  perthToday,
  serviceLabel,
  vehicleYearMessage,
} from '@tyres/kernel';
import { ApiError, errorMessage } from '@tyres/platform/api';
import { injectStyles } from '@tyres/platform/styles';
import { useToast } from '@tyres/platform/toast';
import bookingCss from '../booking/booking.css';
import { TIME_SLOTS_ROOT } from '../booking/api';
import { Calendar } from '../booking/Calendar';
import { FieldError, TextField } from '../booking/fields';
import { PhotoStep } from '../booking/PhotoStep';
import { MESSAGES as BOOKING_DIALOG_MESSAGES } from '../booking/schema';
import { SlotPicker } from '../booking/SlotPicker';
import { PhoneIcon } from '../components/icons';
import { phoneLabel, useSite } from '../site/context';
import { formatLongDate, formatMoney } from '../site/format';
import { useDocumentMeta } from '../site/head';
import { manageMeta } from '../site/meta';
import {
  cancelBooking,
  changeDetails,
  fetchManaged,
  fieldErrors,
  manageKey,
  rescheduleBooking,
  uploadManagedPhotos,
  type CancellationTerms,
  type DetailChanges,
  type ManagedBooking,
} from './api';
import manageCss from './manage.css';
import { cancellationWording, cancelledWording, paidOnline } from './terms';

injectStyles('booking', bookingCss);
injectStyles('manage', manageCss);

export const MANAGE_MESSAGES = {
  linkInvalidTitle: 'This link is not valid',
  linkInvalid: 'This link is not valid or has expired. Please call us to manage your booking.',
  loadFailed: "We couldn't load your booking",
  moved: 'Booking moved',
  cancelled: 'Booking cancelled',
  saved: 'Details updated',
  photosAdded: 'Photos added',
  failedTitle: 'Something went wrong',
} as const;

/** A call button to the business, when a phone number is configured. */
function CallButton({ className = 'pub-btn pub-btn--primary pub-btn--lg' }: { className?: string }) {
  const { business } = useSite();
  if (!business.phone) return null;
  return (
    <a href={`tel:${business.phone}`} className={className}>
      <PhoneIcon /> Call {phoneLabel(business)}
    </a>
  );
}

function LinkNotValid() {
  return (
    <div className="pub-notfound">
      <div className="pub-container pub-notfound__inner">
        <h1 className="pub-notfound__title">{MANAGE_MESSAGES.linkInvalidTitle}</h1>
        <p className="pub-notfound__text">{MANAGE_MESSAGES.linkInvalid}</p>
        <div className="pub-actions pub-actions--center">
          <CallButton />
          <Link to="/" className="pub-btn pub-btn--outline pub-btn--lg">
            Back to Home
          </Link>
        </div>
      </div>
    </div>
  );
}

function paymentState(b: ManagedBooking): string {
  if (paidOnline(b)) return `Paid by card (${formatMoney(b.amountPaid)})`;
  if (b.paymentStatus === 'paid') return 'Paid';
  if (b.paymentMethod === 'onsite') return 'Pay on site after the job';
  return b.paymentStatus.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

const STATUS_LABEL: Record<ManagedBooking['status'], string> = {
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  'in-progress': 'In progress',
  completed: 'Completed',
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="bk-summary__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Summary({ booking: b }: { booking: ManagedBooking }) {
  const v = b.vehicle;
  return (
    <section className="mg-card" aria-labelledby="mg-summary-title">
      <h2 id="mg-summary-title" className="mg-card__title">
        Booking details
      </h2>
      <dl className="bk-summary">
        <Row label="Reference">{b.reference}</Row>
        <Row label="Service">{serviceLabel(b.serviceType)}</Row>
        <Row label="Date">
          {formatLongDate(b.scheduledDate)}, {b.timeSlot}
        </Row>
        <Row label="Address">
          {b.address.street}, {b.address.suburb} {b.address.postcode}
        </Row>
        <Row label="Vehicle">
          {v.year} {v.make} {v.model}
          {v.color ? ` (${v.color})` : ''}, {v.registration}
        </Row>
        {b.tyreSize && (
          <Row label="Tyres">
            {b.tyreQuantity ? `${b.tyreQuantity} × ` : ''}
            {b.tyreSize}
          </Row>
        )}
        <Row label="Phone">{b.phone}</Row>
        <Row label="Notes">{b.notes ?? 'None'}</Row>
        <Row label="Photos">{b.photoCount === 0 ? 'None' : String(b.photoCount)}</Row>
        <Row label="Price">{formatMoney(b.price)} (incl. GST)</Row>
        <Row label="Payment">{paymentState(b)}</Row>
      </dl>
    </section>
  );
}

type Panel = 'reschedule' | 'details' | 'photos' | null;

// ------------------------------------------------------------------------------------------------ reschedule

function ReschedulePanel({
  token,
  booking,
  onDone,
}: {
  token: string;
  booking: ManagedBooking;
  onDone: (b: ManagedBooking) => void;
}) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [date, setDate] = useState('');
  const [slot, setSlot] = useState('');
  const [error, setError] = useState<string | undefined>();
  const labelId = useId();
  const slotIdBase = useId();
  const move = useMutation({
    mutationFn: () => {
      if (!isTimeSlot(slot)) throw new Error(BOOKING_DIALOG_MESSAGES.timeSlot);
      return rescheduleBooking(token, { scheduledDate: date, timeSlot: slot });
    },
    onSuccess: (moved) => {
      void queryClient.invalidateQueries({ queryKey: TIME_SLOTS_ROOT });
      toast({
        title: MANAGE_MESSAGES.moved,
        description: `Your booking is now on ${formatLongDate(moved.scheduledDate)}, ${moved.timeSlot}.`,
      });
      onDone(moved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        if (err.code === 'slot_taken' || err.code === 'slot_unavailable') {
          // As the booking dialog: say so, clear the slot, refresh the slot lists.
          toast({
            title: BOOKING_DIALOG_MESSAGES.slotTakenTitle,
            description: err.serverMessage ?? BOOKING_DIALOG_MESSAGES.slotTaken,
            variant: 'destructive',
          });
          setSlot('');
          void queryClient.invalidateQueries({ queryKey: TIME_SLOTS_ROOT });
          return;
        }
        // Cancelled or started meanwhile: show the booking as it is now.
        void queryClient.invalidateQueries({ queryKey: manageKey(token) });
      }
      toast({
        title: MANAGE_MESSAGES.failedTitle,
        description: errorMessage(err, 'Your booking could not be moved. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!date) return setError(BOOKING_DIALOG_MESSAGES.date);
    if (!slot) return setError(BOOKING_DIALOG_MESSAGES.timeSlot);
    setError(undefined);
    move.mutate();
  };

  return (
    <form className="mg-panel" aria-labelledby="mg-reschedule-title" onSubmit={submit} noValidate>
      <h2 id="mg-reschedule-title" className="mg-card__title" tabIndex={-1}>
        Choose a new date and time
      </h2>
      <p className="bk-hint">
        Now booked for {formatLongDate(booking.scheduledDate)}, {booking.timeSlot}. Your current time stays
        yours until the new one is confirmed.
      </p>
      <p id={labelId} className="bk-label">
        New date
      </p>
      <Calendar
        value={date}
        min={perthToday()}
        labelledBy={labelId}
        onChange={(picked) => {
          if (picked !== date) setSlot('');
          setDate(picked);
          setError(undefined);
        }}
      />
      <SlotPicker
        date={date}
        value={slot}
        idBase={slotIdBase}
        current={date === booking.scheduledDate ? booking.timeSlot : undefined}
        onChange={(picked) => {
          setSlot(picked);
          setError(undefined);
        }}
      />
      <FieldError id={`${slotIdBase}-error`} message={error} />
      <div className="mg-panel__actions">
        <button type="submit" className="pub-btn pub-btn--primary" disabled={move.isPending}>
          {move.isPending ? 'Moving…' : 'Move my booking'}
        </button>
      </div>
    </form>
  );
}

// ------------------------------------------------------------------------------------------------ details

const VEHICLE_FIELDS = ['make', 'model', 'year', 'color', 'registration'] as const;

function DetailsPanel({
  token,
  booking,
  onDone,
}: {
  token: string;
  booking: ManagedBooking;
  onDone: (b: ManagedBooking) => void;
}) {
  const { toast } = useToast();
  const v = booking.vehicle;
  const [values, setValues] = useState({
    phone: booking.phone,
    notes: booking.notes ?? '',
    make: v.make,
    model: v.model,
    year: String(v.year),
    color: v.color ?? '',
    registration: v.registration,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const notesId = useId();
  const form = useRef<HTMLFormElement>(null);

  const changes = (): DetailChanges | string => {
    const body: DetailChanges = {};
    if (values.phone.trim() !== booking.phone) body.phone = values.phone.trim();
    if (values.notes.trim() !== (booking.notes ?? '')) body.notes = values.notes.trim() || null;
    const vehicleChanged =
      values.make.trim() !== v.make ||
      values.model.trim() !== v.model ||
      values.year.trim() !== String(v.year) ||
      values.color.trim() !== (v.color ?? '') ||
      values.registration.trim() !== v.registration;
    if (vehicleChanged) {
      if (!/^\d{4}$/.test(values.year.trim())) return vehicleYearMessage(maxVehicleYear());
      body.vehicle = {
        make: values.make.trim(),
        model: values.model.trim(),
        year: Number(values.year.trim()),
        color: values.color.trim() || null,
        registration: values.registration.trim(),
      };
    }
    return body;
  };

  const save = useMutation({
    mutationFn: (body: DetailChanges) => changeDetails(token, body),
    onSuccess: (changed) => {
      toast({ title: MANAGE_MESSAGES.saved, description: 'Thank you, your booking has been updated.' });
      onDone(changed);
    },
    onError: (err) => {
      const fields = fieldErrors(err);
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
        // The first field the server refused takes focus (as the booking dialog does).
        requestAnimationFrame(() =>
          form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
        );
        return;
      }
      toast({
        title: MANAGE_MESSAGES.failedTitle,
        description: errorMessage(err, 'Your details could not be saved. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = changes();
    if (typeof body === 'string') {
      setErrors({ 'vehicle.year': body });
      return;
    }
    setErrors({});
    save.mutate(body);
  };

  const set = (name: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((s) => ({ ...s, [name]: event.target.value }));
  const vehicleLabels: Record<(typeof VEHICLE_FIELDS)[number], string> = {
    make: 'Vehicle make',
    model: 'Model',
    year: 'Year',
    color: 'Colour (optional)',
    registration: 'Registration',
  };

  return (
    <form ref={form} className="mg-panel" aria-labelledby="mg-details-title" onSubmit={submit} noValidate>
      <h2 id="mg-details-title" className="mg-card__title" tabIndex={-1}>
        Correct your details
      </h2>
      <TextField
        label="Phone number"
        type="tel"
        autoComplete="tel"
        value={values.phone}
        onChange={set('phone')}
        error={errors.phone}
      />
      <div className="bk-field">
        <label htmlFor={notesId} className="bk-label">
          Notes for the technician (optional)
        </label>
        <textarea
          id={notesId}
          className={`bk-input bk-textarea${errors.notes ? ' bk-input--invalid' : ''}`}
          rows={3}
          value={values.notes}
          onChange={set('notes')}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby={errors.notes ? `${notesId}-error` : undefined}
        />
        <FieldError id={`${notesId}-error`} message={errors.notes} />
      </div>
      <fieldset className="bk-fieldset mg-vehicle">
        <legend className="bk-label">Vehicle</legend>
        {VEHICLE_FIELDS.map((name) => (
          <TextField
            key={name}
            label={vehicleLabels[name]}
            value={values[name]}
            onChange={set(name)}
            inputMode={name === 'year' ? 'numeric' : undefined}
            error={errors[`vehicle.${name}`]}
          />
        ))}
      </fieldset>
      {errors[''] && (
        <p className="bk-error" role="alert">
          {errors['']}
        </p>
      )}
      <div className="mg-panel__actions">
        <button type="submit" className="pub-btn pub-btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

// ------------------------------------------------------------------------------------------------ photos

function PhotosPanel({
  token,
  booking,
  onDone,
}: {
  token: string;
  booking: ManagedBooking;
  onDone: () => void;
}) {
  const { toast } = useToast();
  const [photos, setPhotos] = useState<File[]>([]);
  const max = Math.max(0, maxPhotos(booking.tyreSize !== null) - booking.photoCount);
  const upload = useMutation({
    mutationFn: () => uploadManagedPhotos(token, photos),
    onSuccess: (answer) => {
      toast({
        title: MANAGE_MESSAGES.photosAdded,
        description: `${answer.photos.length} photo${answer.photos.length === 1 ? '' : 's'} added to your booking.`,
      });
      setPhotos([]);
      onDone();
    },
    onError: (err) =>
      toast({
        title: MANAGE_MESSAGES.failedTitle,
        description: errorMessage(err, 'Your photos could not be uploaded. Please try again.'),
        variant: 'destructive',
      }),
  });
  return (
    <div className="mg-panel">
      <PhotoStep
        photos={photos}
        onChange={setPhotos}
        max={max}
        tyreSizeKnown={booking.tyreSize !== null}
        headingId="mg-photos-title"
        headingRef={() => undefined}
      />
      <div className="mg-panel__actions">
        <button
          type="button"
          className="pub-btn pub-btn--primary"
          disabled={photos.length === 0 || photos.length > max || upload.isPending}
          onClick={() => upload.mutate()}
        >
          {upload.isPending
            ? 'Uploading…'
            : `Upload ${photos.length || ''} photo${photos.length === 1 ? '' : 's'}`.replace('  ', ' ')}
        </button>
      </div>
    </div>
  );
}

// ------------------------------------------------------------------------------------------------ cancel

/**
 * The confirm dialog: the terms are fetched again when it opens (the band can change while the page is open), so
 * what the customer confirms is what applies at that moment.
 */
function CancelDialog({
  open,
  token,
  onClose,
  onCancelled,
}: {
  open: boolean;
  token: string;
  onClose: () => void;
  onCancelled: (b: ManagedBooking) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const fresh = useQuery({
    queryKey: [...manageKey(token), 'cancel-terms'],
    queryFn: () => fetchManaged(token),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
      keep.current?.focus();
    } else if (!open && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
    }
  }, [open]);
  useEffect(() => {
    if (fresh.data) queryClient.setQueryData(manageKey(token), fresh.data);
  }, [fresh.data, queryClient, token]);

  const cancel = useMutation({
    mutationFn: (shown: CancellationTerms) => cancelBooking(token, reason.trim() || null, shown),
    onSuccess: (cancelled) => {
      void queryClient.invalidateQueries({ queryKey: TIME_SLOTS_ROOT });
      toast({ title: MANAGE_MESSAGES.cancelled, description: cancelledWording(cancelled) ?? undefined });
      onCancelled(cancelled);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409)
        void queryClient.invalidateQueries({ queryKey: manageKey(token) });
      toast({
        title: MANAGE_MESSAGES.failedTitle,
        description: errorMessage(err, 'Your booking could not be cancelled. Please try again or call us.'),
        variant: 'destructive',
      });
    },
  });

  const b = fresh.isFetching ? undefined : fresh.data;
  const terms = b?.cancellation ?? null;
  return (
    <dialog
      ref={ref}
      className="bk-alert"
      role="alertdialog"
      aria-labelledby="mg-cancel-title"
      aria-describedby="mg-cancel-terms"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="mg-cancel-title" className="bk-alert__title">
        Cancel this booking?
      </h2>
      <div id="mg-cancel-terms" className="bk-alert__text">
        {!b && !fresh.isError && (
          <p role="status">
            <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Checking what applies now…
          </p>
        )}
        {fresh.isError && (
          <p role="alert">We couldn&apos;t check the cancellation terms. Please try again or call us.</p>
        )}
        {b && terms && (
          <>
            <p className="mg-terms">{cancellationWording(b, terms)}</p>
            <p className="bk-hint">Our policy: {terms.description}.</p>
          </>
        )}
        {b && !terms && <p>This booking can no longer be cancelled online. Please call us.</p>}
      </div>
      {b && terms && (
        <div className="bk-field">
          <label htmlFor={reasonId} className="bk-label">
            Reason (optional)
          </label>
          <input
            id={reasonId}
            className="bk-input"
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      )}
      <div className="bk-alert__actions">
        <button type="button" className="pub-btn pub-btn--outline" onClick={onClose} ref={keep}>
          Keep my booking
        </button>
        <button
          type="button"
          className="pub-btn mg-btn-danger"
          disabled={!terms || cancel.isPending}
          onClick={() => terms && cancel.mutate(terms)}
        >
          {cancel.isPending ? 'Cancelling…' : 'Yes, cancel booking'}
        </button>
      </div>
    </dialog>
  );
}

// ------------------------------------------------------------------------------------------------ page

function ManagedView({ token, booking: b }: { token: string; booking: ManagedBooking }) {
  const queryClient = useQueryClient();
  const [panel, setPanel] = useState<Panel>(null);
  const [confirming, setConfirming] = useState(false);
  const panelRef = useRef<HTMLDivElement>(null);
  const cancelled = b.status === 'cancelled';
  const photosLeft = Math.max(0, maxPhotos(b.tyreSize !== null) - b.photoCount);

  useEffect(() => {
    // The opened panel's heading takes focus (announced, and scrolled to on a phone).
    if (panel) panelRef.current?.querySelector<HTMLElement>('h2, h3')?.focus();
  }, [panel]);

  const updated = (next: ManagedBooking) => {
    queryClient.setQueryData(manageKey(token), next);
    setPanel(null);
  };
  const toggle = (p: Exclude<Panel, null>) => setPanel((open) => (open === p ? null : p));

  const canAnything = b.can.reschedule || b.can.cancel || b.can.change;
  return (
    <div className="pub-section mg-page">
      <div className="pub-container mg-layout">
        <header className="mg-head">
          <h1 className="pub-page-title">Your booking</h1>
          <p className="mg-ref">
            {b.reference} <span className={`mg-status mg-status--${b.status}`}>{STATUS_LABEL[b.status]}</span>
          </p>
          <p className="pub-muted">Hi {b.customerName}, here you can check and change your booking.</p>
        </header>

        {cancelled && (
          <section
            className="mg-notice mg-notice--cancelled"
            role="status"
            aria-labelledby="mg-cancelled-title"
          >
            <h2 id="mg-cancelled-title" className="mg-card__title">
              This booking has been cancelled
            </h2>
            {b.cancelled && <p>Cancelled on {formatLongDate(b.cancelled.cancelledAt.slice(0, 10))}.</p>}
            {cancelledWording(b) && <p>{cancelledWording(b)}</p>}
            <p>
              Need us after all? <Link to="/">Book again</Link> or call us.
            </p>
          </section>
        )}

        <Summary booking={b} />

        {!cancelled && (
          <section className="mg-card" aria-labelledby="mg-actions-title">
            <h2 id="mg-actions-title" className="mg-card__title">
              Change your booking
            </h2>
            {canAnything ? (
              <>
                {b.cancellation && (
                  <p className="mg-terms-now">
                    {cancellationWording(b, b.cancellation)} <Link to="/terms">Cancellation policy</Link>
                  </p>
                )}
                <div className="mg-actions">
                  {b.can.reschedule && (
                    <button
                      type="button"
                      className="pub-btn pub-btn--outline"
                      aria-expanded={panel === 'reschedule'}
                      onClick={() => toggle('reschedule')}
                    >
                      Reschedule
                    </button>
                  )}
                  {b.can.change && (
                    <button
                      type="button"
                      className="pub-btn pub-btn--outline"
                      aria-expanded={panel === 'details'}
                      onClick={() => toggle('details')}
                    >
                      Correct details
                    </button>
                  )}
                  {b.can.change && photosLeft > 0 && (
                    <button
                      type="button"
                      className="pub-btn pub-btn--outline"
                      aria-expanded={panel === 'photos'}
                      onClick={() => toggle('photos')}
                    >
                      Add photos
                    </button>
                  )}
                  {b.can.cancel && (
                    <button
                      type="button"
                      className="pub-btn mg-btn-danger"
                      onClick={() => setConfirming(true)}
                    >
                      Cancel booking
                    </button>
                  )}
                </div>
              </>
            ) : (
              <p>This booking can no longer be changed online. Please call us.</p>
            )}
            <div ref={panelRef}>
              {panel === 'reschedule' && <ReschedulePanel token={token} booking={b} onDone={updated} />}
              {panel === 'details' && <DetailsPanel token={token} booking={b} onDone={updated} />}
              {panel === 'photos' && (
                <PhotosPanel
                  token={token}
                  booking={b}
                  onDone={() => {
                    setPanel(null);
                    void queryClient.invalidateQueries({ queryKey: manageKey(token) });
                  }}
                />
              )}
            </div>
          </section>
        )}

        <p className="mg-help">
          Questions about your booking? <CallButton className="pub-btn pub-btn--ghost" />
        </p>
      </div>
      <CancelDialog
        open={confirming}
        token={token}
        onClose={() => setConfirming(false)}
        onCancelled={(next) => {
          setConfirming(false);
          updated(next);
        }}
      />
    </div>
  );
}

/**
 * /manage/{token}: "manage my booking" (issue 18), opened from the confirmation email or SMS. Never prerendered or
 * indexed; the token is kept out of the canonical link and referrers (site/meta.ts manageMeta).
 */
export default function ManagePage() {
  const site = useSite();
  const { token = '' } = useParams();
  useDocumentMeta(manageMeta(site), site.siteUrl, site.business.name);
  const booking = useQuery({
    queryKey: manageKey(token),
    queryFn: () => fetchManaged(token),
    enabled: token !== '',
    // Terms change with time: the page reads them again when it is opened again.
    staleTime: 0,
  });

  const notFound =
    token === '' ||
    (booking.error instanceof ApiError && (booking.error.status === 404 || booking.error.status === 400));
  if (notFound) return <LinkNotValid />;
  if (booking.isPending) {
    return (
      <div className="pub-page-loading" role="status">
        <span className="pub-spinner" aria-hidden="true" />
        <span>Loading your booking…</span>
      </div>
    );
  }
  if (booking.isError) {
    return (
      <div className="pub-notfound" role="alert">
        <div className="pub-container pub-notfound__inner">
          <h1 className="pub-notfound__title">{MANAGE_MESSAGES.loadFailed}</h1>
          <p className="pub-notfound__text">Please check your connection and try again, or call us.</p>
          <div className="pub-actions pub-actions--center">
            <button type="button" className="pub-btn pub-btn--primary" onClick={() => void booking.refetch()}>
              Retry
            </button>
            <CallButton className="pub-btn pub-btn--outline" />
          </div>
        </div>
      </div>
    );
  }
  return <ManagedView token={token} booking={booking.data} />;
}
