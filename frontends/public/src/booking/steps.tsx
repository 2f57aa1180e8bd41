import { useId } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { PhoneIcon } from '../components/icons';
import { SERVICE_OPTIONS, PREPAID_SAVING } from '../site/content';
import { phoneLabel, useSite } from '../site/context';
import { formatMoney, moneyCents } from '../site/format';
import { surchargedAt, useCardSurcharge } from '../site/surcharge';
import { AddressField } from './AddressField';
import { useTyrePrice, type PriceQuote } from './api';
import { Calendar } from './Calendar';
import { SlotPicker } from './SlotPicker';
import { FieldError, TextField } from './fields';
import { perthToday } from '@tyres/kernel';
import { digitsOnly, MESSAGES, type BookingValues } from './schema';

export interface StepHeadingProps {
  headingId: string;
  headingRef: (el: HTMLHeadingElement | null) => void;
}

function StepHeading({ headingId, headingRef, children }: StepHeadingProps & { children: string }) {
  return (
    <h3 id={headingId} ref={headingRef} tabIndex={-1} className="bk-step__title">
      {children}
    </h3>
  );
}

// ------------------------------------------------------------------------------------------- 1. date & slot

export function DateStep(props: StepHeadingProps) {
  const { control, setValue, formState } = useFormContext<BookingValues>();
  const date = useWatch({ control, name: 'date' });
  const timeSlot = useWatch({ control, name: 'timeSlot' });
  const today = perthToday();
  const dateLabelId = useId();
  const dateErrorId = useId();
  const slotErrorId = useId();
  const { errors } = formState;

  return (
    <div className="bk-step">
      <StepHeading {...props}>Choose a date and time</StepHeading>
      <p id={dateLabelId} className="bk-label">
        Service date
      </p>
      <Calendar
        value={date}
        min={today}
        labelledBy={dateLabelId}
        errorId={errors.date ? dateErrorId : undefined}
        onChange={(picked) => {
          if (picked !== date) setValue('timeSlot', '');
          setValue('date', picked, { shouldValidate: true });
        }}
      />
      <FieldError id={dateErrorId} message={errors.date?.message} />

      <SlotPicker
        date={date}
        value={timeSlot}
        idBase={slotErrorId}
        errorId={errors.timeSlot ? slotErrorId : undefined}
        onChange={(slot) => setValue('timeSlot', slot, { shouldValidate: true })}
      />
      <FieldError id={slotErrorId} message={errors.timeSlot?.message} />
    </div>
  );
}

// ----------------------------------------------------------------------------------------------- 2. service

export function ServiceStep(props: StepHeadingProps) {
  const { control, setValue, formState } = useFormContext<BookingValues>();
  const serviceType = useWatch({ control, name: 'serviceType' });
  const errorId = useId();
  return (
    <div className="bk-step">
      <StepHeading {...props}>Which service do you need?</StepHeading>
      <fieldset className="bk-fieldset" aria-describedby={formState.errors.serviceType ? errorId : undefined}>
        <legend className="bk-sr-only">Service</legend>
        <div className="bk-choices">
          {SERVICE_OPTIONS.map((option) => (
            <label
              key={option.id}
              className={`bk-choice bk-service${serviceType === option.id ? ' bk-choice--checked' : ''}`}
            >
              <input
                type="radio"
                name="serviceType"
                value={option.id}
                checked={serviceType === option.id}
                onChange={() => setValue('serviceType', option.id, { shouldValidate: true })}
              />
              <span className="bk-choice__label">{option.label}</span>
              <span className="bk-choice__hint">{option.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <FieldError id={errorId} message={formState.errors.serviceType?.message} />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------- price box

export function QuoteSummary({
  quote,
  loading,
  prepaid,
}: {
  quote: PriceQuote | undefined;
  loading: boolean;
  prepaid: boolean;
}) {
  const { business } = useSite();
  const surcharge = useCardSurcharge();
  if (!quote) {
    return loading ? (
      <p className="bk-hint" role="status">
        <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Working out your price…
      </p>
    ) : null;
  }
  if (quote.callbackRequired) {
    return (
      <div className="bk-quote bk-quote--callback" role="status">
        <p className="bk-quote__callback">{quote.message ?? MESSAGES.callForQuote}</p>
        {business.phone && (
          <a className="pub-btn pub-btn--outline" href={`tel:${business.phone}`}>
            <PhoneIcon /> Call {phoneLabel(business)}
          </a>
        )}
        <p className="bk-hint">
          You can still book: we will confirm the price with you, and you pay on site.
        </p>
      </div>
    );
  }
  // Every figure is the server's: the GST in the label is the quote's own `gst` (total ÷ 11), never worked out here.
  const total = moneyCents(quote.total);
  const discount = moneyCents(quote.discount);
  // The price before the prepaid discount (spec: "original price shown is total plus 30").
  const was = total + discount;
  // Prepaid is paid by card: the surcharge at the rate in force, by the kernel's rule billing charges by.
  const card = prepaid && total > 0n ? surchargedAt(total, surcharge) : undefined;
  return (
    <div className="bk-quote" aria-live="polite">
      <p className="bk-quote__heading">Price</p>
      <dl className="bk-quote__lines">
        {quote.items.map((item, i) => (
          <div key={`${item.description}-${i}`} className="bk-quote__line">
            <dt>{item.description}</dt>
            <dd>{formatMoney(item.price)}</dd>
          </div>
        ))}
        {discount > 0n && (
          <div className="bk-quote__line bk-quote__line--saving">
            <dt>Prepaid online discount</dt>
            <dd>-{formatMoney(discount)}</dd>
          </div>
        )}
        <div className="bk-quote__line bk-quote__line--total">
          <dt>Total (inc. GST {formatMoney(quote.gst)})</dt>
          <dd>
            {prepaid && discount > 0n && (
              <s className="bk-quote__was" aria-label={`was ${formatMoney(was)}`}>
                {formatMoney(was)}
              </s>
            )}{' '}
            <span className="bk-quote__total">{formatMoney(total)}</span>
          </dd>
        </div>
        {card && (
          <>
            <div className="bk-quote__line">
              <dt>Card surcharge ({surcharge.label})</dt>
              <dd>{formatMoney(card.surcharge)}</dd>
            </div>
            <div className="bk-quote__line bk-quote__line--total">
              <dt>To pay by card</dt>
              <dd>{formatMoney(card.total)}</dd>
            </div>
          </>
        )}
      </dl>
      {!prepaid && total > 0n && <p className="bk-hint">Prepay online and save {PREPAID_SAVING}.</p>}
    </div>
  );
}

// ------------------------------------------------------------------------------------------ 3. tyre details

export function TyreStep(
  props: StepHeadingProps & {
    tyreSize: string | null;
    quote: PriceQuote | undefined;
    quoteLoading: boolean;
    prepaid: boolean;
    onSingleTyre: () => void;
  },
) {
  const { control, register, setValue, formState } = useFormContext<BookingValues>();
  const quantity = useWatch({ control, name: 'quantity' });
  const price = useTyrePrice(props.tyreSize);
  const { errors } = formState;
  const quantityErrorId = useId();
  const digits = (name: 'tyreWidth' | 'tyreProfile' | 'tyreRim', max: number) =>
    register(name, {
      onChange: (event: { target: HTMLInputElement }) => {
        // A whole size pasted or typed into one box ("205/55R16", "205 55 16") fills all three.
        const whole = /^\s*(\d{3})\s*[/\s-]\s*(\d{2})\s*(?:Z?R|[/\s-])?\s*(\d{2})\s*$/i.exec(
          event.target.value,
        );
        if (whole) {
          setValue('tyreWidth', whole[1] ?? '', { shouldValidate: true });
          setValue('tyreProfile', whole[2] ?? '', { shouldValidate: true });
          setValue('tyreRim', whole[3] ?? '', { shouldValidate: true });
          return;
        }
        const clean = digitsOnly(event.target.value, max);
        if (clean !== event.target.value) setValue(name, clean);
      },
    });

  return (
    <div className="bk-step">
      <StepHeading headingId={props.headingId} headingRef={props.headingRef}>
        Tyre details
      </StepHeading>
      <p className="bk-step__lead" id="bk-size-help">
        Your tyre size is on the tyre sidewall, for example <strong>205/55R16</strong>: width 205, profile 55,
        rim 16. Not sure? Leave it blank and add a photo in the next steps.
      </p>
      <div className="bk-size">
        <TextField
          label="Width"
          inputMode="numeric"
          pattern="[0-9]*"
          placeholder="205"
          autoComplete="off"
          error={errors.tyreWidth?.message}
          {...digits('tyreWidth', 3)}
        />
        <span className="bk-size__sep" aria-hidden="true">
          /
        </span>
        <TextField
          label="Profile"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={2}
          placeholder="55"
          autoComplete="off"
          error={errors.tyreProfile?.message}
          {...digits('tyreProfile', 2)}
        />
        <span className="bk-size__sep" aria-hidden="true">
          R
        </span>
        <TextField
          label="Rim"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={2}
          placeholder="16"
          autoComplete="off"
          error={errors.tyreRim?.message}
          {...digits('tyreRim', 2)}
        />
      </div>

      <fieldset className="bk-fieldset" aria-describedby={errors.quantity ? quantityErrorId : undefined}>
        <legend className="bk-label">How many tyres?</legend>
        <div className="bk-qty">
          {[1, 2, 3, 4].map((n) => (
            <label key={n} className={`bk-choice bk-qty__item${quantity === n ? ' bk-choice--checked' : ''}`}>
              <input
                type="radio"
                name="quantity"
                value={n}
                checked={quantity === n}
                onChange={() => {
                  setValue('quantity', n, { shouldValidate: true });
                  if (n === 1) props.onSingleTyre();
                }}
              />
              <span className="bk-choice__label">{n}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <FieldError id={quantityErrorId} message={errors.quantity?.message} />

      <div className="bk-price">
        {props.tyreSize === null ? (
          <p className="bk-hint">Enter width, profile and rim to see your price.</p>
        ) : price.data && 'price' in price.data && price.data.price !== undefined ? (
          <p className="bk-price__each">
            {props.tyreSize}: <strong>{formatMoney(price.data.price)}</strong> per tyre
          </p>
        ) : price.data ? (
          <p className="bk-price__each">{price.data.message}</p>
        ) : (
          <p className="bk-hint" role="status">
            <span className="pub-spinner pub-spinner--sm" aria-hidden="true" /> Looking up {props.tyreSize}…
          </p>
        )}
        <QuoteSummary quote={props.quote} loading={props.quoteLoading} prepaid={props.prepaid} />
      </div>
    </div>
  );
}

// ------------------------------------------------------------------------------------ 4. location & vehicle

export function LocationStep(props: StepHeadingProps) {
  const { control, register, setValue, formState, trigger } = useFormContext<BookingValues>();
  const { errors } = formState;
  return (
    <div className="bk-step">
      <StepHeading {...props}>Where are you, and what do you drive?</StepHeading>
      <Controller
        control={control}
        name="address"
        render={({ field }) => (
          <AddressField
            name={field.name}
            value={field.value}
            inputRef={field.ref}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.address?.message}
            onSelect={(suggestion) => {
              setValue('address', suggestion.streetAddress || suggestion.fullAddress);
              setValue('suburb', suggestion.suburb);
              setValue('postcode', suggestion.postcode);
              void trigger(['address', 'suburb', 'postcode']);
            }}
          />
        )}
      />
      <div className="bk-row">
        <TextField
          label="Suburb"
          autoComplete="address-level2"
          error={errors.suburb?.message}
          {...register('suburb')}
        />
        <TextField
          label="Postcode"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={4}
          error={errors.postcode?.message}
          className="bk-field--narrow"
          {...register('postcode')}
        />
      </div>
      <div className="bk-row">
        <TextField
          label="Vehicle make"
          placeholder="Toyota"
          error={errors.vehicleMake?.message}
          {...register('vehicleMake')}
        />
        <TextField
          label="Model"
          placeholder="Corolla"
          error={errors.vehicleModel?.message}
          {...register('vehicleModel')}
        />
      </div>
      <div className="bk-row">
        <TextField
          label="Year"
          inputMode="numeric"
          maxLength={4}
          placeholder="2018"
          error={errors.vehicleYear?.message}
          className="bk-field--narrow"
          {...register('vehicleYear')}
        />
        <Controller
          control={control}
          name="registration"
          render={({ field }) => (
            <TextField
              label="Registration"
              placeholder="1ABC234"
              autoCapitalize="characters"
              autoComplete="off"
              error={errors.registration?.message}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(event.target.value.toUpperCase())}
            />
          )}
        />
      </div>
    </div>
  );
}

// -------------------------------------------------------------------------------------- 6. contact & payment

export function ContactStep(
  props: StepHeadingProps & {
    prepaidAllowed: boolean;
    serviceType: string;
    quote: PriceQuote | undefined;
    quoteLoading: boolean;
  },
) {
  const { control, register, setValue, formState } = useFormContext<BookingValues>();
  const paymentMethod = useWatch({ control, name: 'paymentMethod' });
  const { errors } = formState;
  const whyOnsiteId = useId();
  const notesId = useId();
  return (
    <div className="bk-step">
      <StepHeading headingId={props.headingId} headingRef={props.headingRef}>
        Your details and payment
      </StepHeading>
      <TextField
        label="Full name"
        autoComplete="name"
        error={errors.customerName?.message}
        {...register('customerName')}
      />
      <div className="bk-row">
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          error={errors.customerPhone?.message}
          {...register('customerPhone')}
        />
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.customerEmail?.message}
          {...register('customerEmail')}
        />
      </div>

      <fieldset className="bk-fieldset">
        <legend className="bk-label">How would you like to pay?</legend>
        <div className="bk-choices bk-choices--2">
          <label
            className={`bk-choice${paymentMethod === 'prepaid' ? ' bk-choice--checked' : ''}${props.prepaidAllowed ? '' : ' bk-choice--disabled'}`}
          >
            <input
              type="radio"
              name="paymentMethod"
              value="prepaid"
              checked={paymentMethod === 'prepaid'}
              disabled={!props.prepaidAllowed}
              aria-describedby={props.prepaidAllowed ? undefined : whyOnsiteId}
              onChange={() => setValue('paymentMethod', 'prepaid')}
            />
            <span className="bk-choice__label">Prepaid Online</span>
            <span className="bk-choice__hint">Pay by card now and save {PREPAID_SAVING}</span>
          </label>
          <label className={`bk-choice${paymentMethod === 'onsite' ? ' bk-choice--checked' : ''}`}>
            <input
              type="radio"
              name="paymentMethod"
              value="onsite"
              checked={paymentMethod === 'onsite'}
              onChange={() => setValue('paymentMethod', 'onsite')}
            />
            <span className="bk-choice__label">Cash on Delivery</span>
            <span className="bk-choice__hint">Pay the technician on site</span>
          </label>
        </div>
        {!props.prepaidAllowed && (
          <p id={whyOnsiteId} className="bk-hint">
            {props.serviceType === 'battery-service'
              ? 'Battery service is quoted on site, so you pay on site.'
              : 'This booking needs a custom quote, so you pay on site.'}
          </p>
        )}
      </fieldset>

      <div className="bk-field">
        <label htmlFor={notesId} className="bk-label">
          Anything we should know? (optional)
        </label>
        <textarea
          id={notesId}
          className="bk-input bk-textarea"
          rows={3}
          maxLength={2000}
          placeholder="Parking, access, locking wheel nuts…"
          {...register('notes')}
        />
      </div>

      <QuoteSummary quote={props.quote} loading={props.quoteLoading} prepaid={paymentMethod === 'prepaid'} />
    </div>
  );
}
