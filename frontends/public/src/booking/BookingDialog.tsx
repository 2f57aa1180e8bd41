import {
  useCallback,
  useEffect,
  useEffectEvent,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type RefObject,
} from 'react';
import { FormProvider, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { injectStyles } from '@tyres/platform/styles';
import { useToast } from '@tyres/platform/toast';
import { dialogEntryOnTop } from '../components/booking-history';
import { CheckIcon, CloseIcon } from '../components/icons';
import { BUSINESS_TIME_ZONE, maxVehicleYear, serviceLabel, type ServiceType } from '@tyres/kernel';
import { phoneLabel, useSite } from '../site/context';
import { formatLongDate, formatMoney, moneyCents } from '../site/format';
import {
  rateFromPercent,
  surchargeAt,
  surchargedAt,
  useCardSurcharge,
  type CardSurcharge,
} from '../site/surcharge';
import {
  createBooking,
  createQuote,
  newKey,
  quoteFor,
  recheckTimeSlots,
  TIME_SLOTS_ROOT,
  uploadPhotos,
  useQuote,
  type BookingPayload,
} from './api';
import css from './booking.css';
import { clearDraft, loadDraft, saveDraft } from './draft';
import { PhotoStep } from './PhotoStep';
import { maxPhotos } from './photos';
import {
  bookingSchema,
  defaultValues,
  MESSAGES,
  nextStep,
  prepaidAllowed as isPrepaidAllowed,
  previousStep,
  STEP_FIELDS,
  STEPS,
  stepPercent,
  TOTAL_STEPS,
  tyreSizeOf,
  usesTyreDetails,
  type BookingValues,
  type Step,
} from './schema';
import { ContactStep, DateStep, LocationStep, ServiceStep, TyreStep } from './steps';
import { submitBooking, type BookingOutcome } from './submit';

injectStyles('booking', css);

export interface BookingDialogProps {
  open: boolean;
  /** navigating: the dialog is closing because the page changes (the checkout), see booking-context. */
  onClose: (options?: { navigating?: boolean }) => void;
  initialService?: ServiceType;
  /** Changes every time a booking button is pressed. */
  openSeq: number;
}

/**
 * A native modal <dialog>: focus stays inside, Esc and the close button close it, the page behind is inert.
 * `initialFocus`: the element that takes focus when it opens (else the browser's choice, the first focusable one).
 */
function useModal(
  ref: RefObject<HTMLDialogElement | null>,
  open: boolean,
  initialFocus?: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
      initialFocus?.current?.focus();
    } else if (!open && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
    }
  }, [ref, open, initialFocus]);
}

function SingleTyreWarning({
  open,
  onKeep,
  onPair,
}: {
  open: boolean;
  onKeep: () => void;
  onPair: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // The alert opens on the answer that keeps the customer's choice (WAI-ARIA alertdialog: focus the least
  // destructive action).
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  useModal(ref, open, keep);
  return (
    <dialog
      ref={ref}
      className="bk-alert"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onKeep();
      }}
    >
      <h3 id={titleId} className="bk-alert__title">
        Replacing just one tyre?
      </h3>
      <p id={textId} className="bk-alert__text">
        For safe braking and handling we recommend replacing tyres in pairs on the same axle: a new tyre next
        to a worn one can make the car pull and grip unevenly. You can still book a single tyre.
      </p>
      <div className="bk-alert__actions">
        <button type="button" className="pub-btn pub-btn--outline" onClick={onPair}>
          Make it 2 tyres
        </button>
        <button type="button" className="pub-btn pub-btn--primary" onClick={onKeep} ref={keep}>
          Continue with 1 tyre
        </button>
      </div>
    </dialog>
  );
}

export default function BookingDialog({ open, onClose, initialService, openSeq }: BookingDialogProps) {
  const site = useSite();
  const { business } = site;
  const { toast } = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const stepHeadingId = useId();
  const headingEl = useRef<HTMLHeadingElement | null>(null);
  const maxYear = useMemo(() => maxVehicleYear(), []);
  const schema = useMemo(() => bookingSchema(maxYear), [maxYear]);
  // A reload in the middle of the dialog brings back the same step and answers (see draft.ts).
  const [draft] = useState(() => loadDraft());
  const form = useForm<BookingValues>({
    resolver: zodResolver(schema),
    defaultValues: draft?.values ?? defaultValues(),
    mode: 'onTouched',
  });
  const { control, setValue, getValues, trigger, reset, setFocus } = form;
  const [step, setStep] = useState<Step>(draft?.step ?? 1);
  const [photos, setPhotos] = useState<File[]>([]);
  const [photosToAddAgain, setPhotosToAddAgain] = useState(draft?.photoCount ?? 0);
  const [outcome, setOutcome] = useState<BookingOutcome | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [singleTyre, setSingleTyre] = useState(false);
  const forcedOnsite = useRef(false);
  const idempotency = useRef<{ payload: string; key: string } | null>(null);
  const focusOnStep = useRef(false);

  useModal(dialogRef, open);
  // Opening moves focus to the current step's heading, so screen readers start with what to do.
  useEffect(() => {
    if (open) requestAnimationFrame(() => headingEl.current?.focus());
  }, [open, openSeq]);

  const serviceType = useWatch({ control, name: 'serviceType' });
  const paymentMethod = useWatch({ control, name: 'paymentMethod' });
  const quantity = useWatch({ control, name: 'quantity' });
  const tyreWidth = useWatch({ control, name: 'tyreWidth' });
  const tyreProfile = useWatch({ control, name: 'tyreProfile' });
  const tyreRim = useWatch({ control, name: 'tyreRim' });
  const tyreSize = usesTyreDetails(serviceType) ? tyreSizeOf({ tyreWidth, tyreProfile, tyreRim }) : null;
  const photoLimit = maxPhotos(tyreSize !== null);

  const quote = useQuote({
    serviceType,
    tyreSize,
    quantity: usesTyreDetails(serviceType) ? quantity : 1,
    prepaid: paymentMethod === 'prepaid',
  });
  const callbackRequired = quote.data?.callbackRequired === true;
  const prepaidAllowed = isPrepaidAllowed(serviceType, callbackRequired);

  // Prepaid is forced to onsite for battery service and callback quotes; it comes back when that no longer holds.
  useEffect(() => {
    if (!prepaidAllowed && getValues('paymentMethod') === 'prepaid') {
      forcedOnsite.current = true;
      setValue('paymentMethod', 'onsite');
    } else if (prepaidAllowed && forcedOnsite.current) {
      forcedOnsite.current = false;
      setValue('paymentMethod', 'prepaid');
    }
  }, [prepaidAllowed, getValues, setValue]);

  // A booking button for a given service preselects it (the customer still starts with the date). Only when a
  // booking button is pressed (openSeq), with the form as it is then: an effect event reads the latest values.
  const preselectService = useEffectEvent(() => {
    if (initialService && !getValues('serviceType') && step <= 2) setValue('serviceType', initialService);
  });
  useEffect(() => {
    preselectService();
  }, [openSeq]);

  // Each step change is announced ("Step n of 7: ...", a live region) and moves focus to the step's heading.
  const announcement = `Step ${step} of ${TOTAL_STEPS}: ${STEPS[step - 1]?.title ?? ''}`;
  useEffect(() => {
    if (focusOnStep.current) {
      focusOnStep.current = false;
      requestAnimationFrame(() => headingEl.current?.focus());
    }
  }, [step]);

  const goTo = useCallback((target: Step) => {
    focusOnStep.current = true;
    setStep(target);
  }, []);

  const resetAll = useCallback(() => {
    reset(defaultValues());
    setPhotos([]);
    setPhotosToAddAgain(0);
    setOutcome(null);
    setStep(1);
    forcedOnsite.current = false;
    idempotency.current = null;
    clearDraft();
  }, [reset]);

  // Keep the draft up to date while the booking is being filled in (not once it is made).
  useEffect(() => {
    if (step === TOTAL_STEPS) return;
    const save = () => saveDraft({ step, values: getValues(), photoCount: photos.length + photosToAddAgain });
    save();
    // subscribe (not watch): told of every value change without re-rendering the dialog.
    return form.subscribe({ formState: { values: true }, callback: save });
  }, [form, getValues, step, photos.length, photosToAddAgain]);

  // Closing the confirmation resets the form, whichever way it is closed (button, Esc, the phone's Back);
  // closing part way keeps what was entered. The phone's Back closes the dialog from outside (booking-context), so
  // this follows the open prop; the reset also clears the form store and the saved draft, which is effect work.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once per close of the confirmation (see above)
    if (!open && step === TOTAL_STEPS) resetAll();
  }, [open, step, resetAll]);

  const close = useCallback(() => {
    if (step === TOTAL_STEPS) resetAll();
    onClose();
  }, [step, resetAll, onClose]);

  const focusFirstError = (fields: FieldPath<BookingValues>[]) => {
    const errors = form.formState.errors;
    const first = fields.find((name) => errors[name]);
    if (!first) return;
    if (first === 'date' || first === 'timeSlot' || first === 'serviceType' || first === 'quantity') {
      headingEl.current?.focus();
      return;
    }
    setFocus(first);
  };

  const next = async () => {
    const fields = STEP_FIELDS[step];
    if (fields.length > 0 && !(await trigger(fields, { shouldFocus: false }))) {
      focusFirstError(fields);
      return;
    }
    if (step === 5 && photos.length > photoLimit) return;
    goTo(nextStep(step, getValues('serviceType')));
  };

  const back = () => goTo(previousStep(step, getValues('serviceType')));

  const keyFor = (payload: BookingPayload) => {
    const json = JSON.stringify(payload);
    if (!idempotency.current || idempotency.current.payload !== json) {
      idempotency.current = { payload: json, key: newKey() };
    }
    return idempotency.current.key;
  };

  // The submit itself is submitBooking (submit.ts); here its answer becomes a toast, a step or the confirmation.
  const submit = async (values: BookingValues) => {
    setSubmitting(true);
    try {
      const result = await submitBooking(
        { values, photos },
        {
          recheckTimeSlots: (date) => recheckTimeSlots(queryClient, date),
          quoteFor: (input) => quoteFor(queryClient, input),
          createQuote,
          createBooking,
          uploadPhotos,
          keyFor,
        },
      );
      switch (result.kind) {
        case 'invalid':
          toast({ ...result.message, variant: 'destructive' });
          goTo(1);
          return;
        case 'slot-unavailable':
          toast({ ...result.message, variant: 'destructive' });
          setValue('timeSlot', '');
          void queryClient.invalidateQueries({ queryKey: TIME_SLOTS_ROOT });
          goTo(1);
          return;
        case 'failed':
          toast({ ...result.message, variant: 'destructive' });
          return;
        case 'booked':
          setOutcome(result.outcome);
          // The booking exists: a reload from here must not offer to book it again.
          clearDraft();
          void queryClient.invalidateQueries({ queryKey: TIME_SLOTS_ROOT });
          goTo(7);
      }
    } finally {
      setSubmitting(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (step < 6) {
      void next();
      return;
    }
    if (step === 6) {
      void form.handleSubmit(submit, (errors) => {
        // Errors on an earlier step (e.g. the date) take the customer back there.
        const order: Step[] = [1, 2, 3, 4, 6];
        const target = order.find((s) => STEP_FIELDS[s].some((f) => errors[f]));
        if (target !== undefined && target !== 6) {
          if (target === 1 && (errors.date || errors.timeSlot)) {
            toast({ title: MESSAGES.dateAndSlot, variant: 'destructive' });
          }
          goTo(target);
        } else {
          focusFirstError(STEP_FIELDS[6]);
        }
      })(event);
    }
  };

  const continueToPayment = () => {
    if (outcome?.kind !== 'prepaid') return;
    const token = outcome.bookingToken;
    // The dialog's own history entry (pushed when it opened) becomes the checkout, so Back from the checkout
    // returns to the page the customer booked from.
    const replace = dialogEntryOnTop();
    resetAll();
    onClose({ navigating: true });
    navigate(`/checkout/${encodeURIComponent(token)}`, { replace });
  };

  const percent = stepPercent(step);
  const headingProps = {
    headingId: stepHeadingId,
    headingRef: (el: HTMLHeadingElement | null) => {
      headingEl.current = el;
    },
  };
  const prepaid = paymentMethod === 'prepaid' && prepaidAllowed;
  // A prepaid booking is paid by card: what is paid now includes the card surcharge at the rate in force.
  const surcharge = useCardSurcharge();
  const payNow = (total: string) => (prepaid ? surchargedAt(moneyCents(total), surcharge).total : total);

  return (
    <dialog
      ref={dialogRef}
      className="bk-dialog"
      aria-labelledby={titleId}
      aria-describedby={stepHeadingId}
      onCancel={(event) => {
        event.preventDefault();
        if (!submitting) close();
      }}
    >
      <div className="bk-dialog__panel">
        <header className="bk-dialog__header">
          <h2 id={titleId} className="bk-dialog__title">
            Book a Service
          </h2>
          <button
            type="button"
            className="pub-icon-button"
            aria-label="Close booking"
            onClick={close}
            disabled={submitting}
          >
            <CloseIcon />
          </button>
        </header>
        <div className="bk-progress">
          <p className="bk-progress__label">
            <span>
              Step {step} of {TOTAL_STEPS}
            </span>
            <span>{percent}%</span>
          </p>
          <div
            className="bk-progress__track"
            role="progressbar"
            aria-label="Booking progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`Step ${step} of ${TOTAL_STEPS}, ${percent}%`}
          >
            <div className="bk-progress__bar" style={{ width: `${percent}%` }} />
          </div>
          <p className="bk-sr-only" aria-live="polite">
            {announcement}
          </p>
        </div>

        <FormProvider {...form}>
          <form className="bk-dialog__form" noValidate onSubmit={onSubmit} aria-busy={submitting}>
            <div className="bk-dialog__body">
              {step === 1 && <DateStep {...headingProps} />}
              {step === 2 && <ServiceStep {...headingProps} />}
              {step === 3 && (
                <TyreStep
                  {...headingProps}
                  tyreSize={tyreSize}
                  quote={quote.data}
                  quoteLoading={quote.isFetching}
                  prepaid={prepaid}
                  onSingleTyre={() => setSingleTyre(true)}
                />
              )}
              {step === 4 && <LocationStep {...headingProps} />}
              {step === 5 && (
                <PhotoStep
                  {...headingProps}
                  photos={photos}
                  onChange={(list) => {
                    setPhotos(list);
                    setPhotosToAddAgain(0);
                  }}
                  photosToAddAgain={photosToAddAgain}
                  max={photoLimit}
                  tyreSizeKnown={tyreSize !== null}
                />
              )}
              {step === 6 && (
                <ContactStep
                  {...headingProps}
                  prepaidAllowed={prepaidAllowed}
                  serviceType={serviceType}
                  quote={quote.data}
                  quoteLoading={quote.isFetching}
                />
              )}
              {step === 7 && outcome && (
                <Confirmation
                  {...headingProps}
                  outcome={outcome}
                  surchargeInForce={surcharge}
                  phone={business.phone}
                  phoneText={phoneLabel(business)}
                />
              )}
            </div>

            <footer className="bk-dialog__footer">
              {/* On a phone the price summary is above the fold of step 6: the total stays next to the button (not for a
                  price given on site, e.g. battery service). */}
              {step === 6 &&
                quote.data &&
                !callbackRequired &&
                !quote.isFetching &&
                moneyCents(quote.data.total) > 0n && (
                  <p className="bk-dialog__total">
                    {`${prepaid ? 'Total to pay now' : 'Total to pay on site'}: ${formatMoney(payNow(quote.data.total))}`}
                  </p>
                )}
              {step > 1 && step < TOTAL_STEPS && (
                <button type="button" className="pub-btn pub-btn--ghost" onClick={back} disabled={submitting}>
                  Back
                </button>
              )}
              {step < 6 && (
                <button type="submit" className="pub-btn pub-btn--primary bk-dialog__primary">
                  Next
                </button>
              )}
              {step === 6 && (
                <button
                  type="submit"
                  className="pub-btn pub-btn--primary bk-dialog__primary"
                  disabled={submitting}
                >
                  {submitting ? (
                    <>
                      <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Please wait…
                    </>
                  ) : prepaid ? (
                    'Confirm & Pay'
                  ) : (
                    'Confirm Booking'
                  )}
                </button>
              )}
              {step === TOTAL_STEPS && outcome?.kind === 'prepaid' && (
                <button
                  type="button"
                  className="pub-btn pub-btn--primary bk-dialog__primary"
                  onClick={continueToPayment}
                >
                  Continue to Secure Payment
                </button>
              )}
              {step === TOTAL_STEPS && outcome?.kind === 'onsite' && (
                <button type="button" className="pub-btn pub-btn--primary bk-dialog__primary" onClick={close}>
                  Done
                </button>
              )}
            </footer>
          </form>
        </FormProvider>
      </div>
      <SingleTyreWarning
        open={open && singleTyre}
        onKeep={() => setSingleTyre(false)}
        onPair={() => {
          setValue('quantity', 2, { shouldValidate: true });
          setSingleTyre(false);
        }}
      />
    </dialog>
  );
}

function Confirmation({
  outcome,
  surchargeInForce,
  phone,
  phoneText,
  headingId,
  headingRef,
}: {
  outcome: BookingOutcome;
  surchargeInForce: CardSurcharge;
  phone: string | null;
  phoneText: string | null;
  headingId: string;
  headingRef: (el: HTMLHeadingElement | null) => void;
}) {
  const v = outcome.values;
  const details = (
    <dl className="bk-summary">
      <div className="bk-summary__row">
        <dt>Service</dt>
        <dd>{serviceLabel(v.serviceType)}</dd>
      </div>
      <div className="bk-summary__row">
        <dt>When</dt>
        <dd>
          {formatLongDate(v.date)}, {v.timeSlot}
        </dd>
      </div>
      <div className="bk-summary__row">
        <dt>Where</dt>
        <dd>
          {v.address}, {v.suburb} {v.postcode}
        </dd>
      </div>
      <div className="bk-summary__row">
        <dt>Vehicle</dt>
        <dd>
          {v.vehicleYear} {v.vehicleMake} {v.vehicleModel} ({v.registration.toUpperCase()})
        </dd>
      </div>
    </dl>
  );
  const photoNote = outcome.photosFailed && (
    <p className="bk-hint bk-hint--warn" role="status">
      Your photos could not be uploaded. No problem: you can show them to the technician.
    </p>
  );
  if (outcome.kind === 'prepaid') {
    // The rate the quote stored (checkout charges it), else the rate in force; the amount by the kernel's rule.
    const quotedRate = rateFromPercent(outcome.cardSurchargeRate);
    const surcharge = quotedRate === undefined ? surchargeInForce : surchargeAt(quotedRate);
    const card = surchargedAt(moneyCents(outcome.amount), surcharge);
    return (
      <div className="bk-step bk-done">
        <h3 id={headingId} ref={headingRef} tabIndex={-1} className="bk-step__title">
          Almost done: secure your booking
        </h3>
        <p className="bk-step__lead">
          Your time slot is held for you. Pay {formatMoney(card.total)} by card to confirm it (
          {formatMoney(card.original)} plus the {surcharge.label} card surcharge of{' '}
          {formatMoney(card.surcharge)}).
          {outcome.expiresAt && (
            <>
              {' '}
              The hold ends at{' '}
              {new Date(outcome.expiresAt).toLocaleTimeString('en-AU', {
                hour: 'numeric',
                minute: '2-digit',
                timeZone: BUSINESS_TIME_ZONE,
              })}
              .
            </>
          )}
        </p>
        {details}
        {photoNote}
      </div>
    );
  }
  return (
    <div className="bk-step bk-done">
      <span className="bk-done__icon" aria-hidden="true">
        <CheckIcon />
      </span>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="bk-step__title">
        Booking Confirmed!
      </h3>
      <p className="bk-step__lead">
        Your booking number is <strong className="bk-done__number">{outcome.jobNumber}</strong>. Our
        technician will come to you during your time slot.
        {outcome.total !== null && <> You pay {formatMoney(outcome.total)} on site.</>}
      </p>
      {details}
      {photoNote}
      {phone && (
        <p className="bk-hint">
          Need to change something? Call <a href={`tel:${phone}`}>{phoneText}</a>.
        </p>
      )}
    </div>
  );
}
