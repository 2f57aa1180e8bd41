import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Tag } from 'antd';
import { ApiError } from '@tyres/platform';
import { useCreateBooking, usePriceList, useTyrePrice } from '../api/bookings';
import { invalidateSlots } from '../api/jobs';
import { useAvailability } from '../api/slots';
import { AddressAutocomplete } from '../components/AddressAutocomplete';
import { DateField } from '../components/DateField';
import { Field, type FieldMeta } from '../components/Field';
import { PageHeader } from '../components/PageHeader';
import { useDashboard, useDashboardNavigation } from '../context';
import {
  bookingDefaults,
  bookingRequest,
  staffBookingResolver,
  tyreSizeOf,
  type StaffBookingValues,
} from '../forms/booking';
import { useNotify } from '../hooks/useNotify';
import {
  MAX_TYRE_QUANTITY,
  MIN_TYRE_QUANTITY,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  SERVICE_OPTIONS as SERVICES,
  TIME_SLOTS,
} from '@tyres/kernel';
import { estimateTotal } from '../lib/estimate';
import { cents, formatMoney } from '../lib/money';

/** The tyre price follows the preferred brand once typing pauses this long. */
const BRAND_PRICE_DEBOUNCE_MS = 400;

const SERVICE_OPTIONS = SERVICES.map((s) => ({ value: s.id, label: s.label }));
const PAYMENT_OPTIONS = PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));

/** Digits only, at most `max` of them (tyre width 3, profile 2, rim 2). */
export const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

const aria = (meta: FieldMeta) => ({
  id: meta.id,
  'aria-invalid': meta.invalid || undefined,
  'aria-describedby': meta.describedBy,
});

/** New Booking (staff): the spec's six cards, estimated total, "Creating Booking..." while it is sent. */
export function NewBookingPage() {
  const { business } = useDashboard();
  const nav = useDashboardNavigation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const create = useCreateBooking();
  const { control, handleSubmit, setValue, trigger, getValues } = useForm<StaffBookingValues>({
    resolver: staffBookingResolver,
    defaultValues: bookingDefaults(),
    mode: 'onTouched',
  });
  const [date, serviceType, width, profile, rim, quantity, paymentMethod, brand] = useWatch({
    control,
    name: [
      'scheduledDate',
      'serviceType',
      'tyreWidth',
      'tyreProfile',
      'tyreRim',
      'tyreQuantity',
      'paymentMethod',
      'tyreBrand',
    ],
  });
  // The preferred brand changes the tyre price (as it does for the booking); asked for once typing pauses.
  const [priceBrand, setPriceBrand] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setPriceBrand(brand ?? ''), BRAND_PRICE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [brand]);
  const availability = useAvailability(date);
  const tyreSize =
    serviceType === 'new-tyres'
      ? (tyreSizeOf({ tyreWidth: width, tyreProfile: profile, tyreRim: rim }) ?? null)
      : null;
  const tyrePrice = useTyrePrice(tyreSize, priceBrand);
  const priceList = usePriceList();
  const needsCallback = Boolean(tyreSize) && tyrePrice.isSuccess && tyrePrice.data === null;
  const estimate = estimateTotal({
    serviceType,
    quantity,
    tyrePrice: tyrePrice.data?.price ?? null,
    prepaid: paymentMethod === 'prepaid',
    fees: priceList.data,
  });

  // A slot that is no longer free on the chosen date (after a refresh) is cleared.
  useEffect(() => {
    const current = getValues('timeSlot');
    if (!current || !availability.data) return;
    const entry = availability.data.find((s) => s.slot === current);
    if (entry && !entry.isAvailable) setValue('timeSlot', '', { shouldValidate: true });
  }, [availability.data, getValues, setValue]);

  const slotOptions = TIME_SLOTS.map(({ slot: label }) => {
    const entry = availability.data?.find((s) => s.slot === label);
    const unavailable = entry ? !entry.isAvailable : false;
    return {
      value: label,
      label: unavailable ? `${label} (Unavailable)` : label,
      disabled: unavailable || !availability.data,
    };
  });

  // Precondition of the Create button: the chosen date's availability is known (not loading, not failed).
  const preconditionsMet = !date || (availability.isSuccess && !availability.isFetching);

  const onSubmit = handleSubmit(async (values) => {
    let body;
    try {
      body = bookingRequest(values);
    } catch (error) {
      notify.invalid('Booking Failed', error instanceof Error ? error.message : 'Invalid time slot');
      return;
    }
    await create.mutateAsync(body).then(
      (answer) => {
        notify.success('Booking Created', `Booking ${answer.jobNumber} has been created.`);
        nav.home('jobs');
      },
      (error: unknown) => {
        // Toasted by the mutation cache ("Booking Failed"); a slot taken meanwhile is cleared for a new choice.
        if (error instanceof ApiError && error.status === 409) {
          setValue('timeSlot', '', { shouldValidate: false });
          void invalidateSlots(queryClient);
        }
      },
    );
  });

  const text = (
    name: keyof StaffBookingValues,
    label: string,
    id: string,
    props: Record<string, unknown> = {},
    optional = false,
  ) => (
    <Field
      control={control}
      name={name}
      label={label}
      id={id}
      optional={optional}
      render={(field, meta) => (
        <Input {...field} value={String(field.value ?? '')} {...aria(meta)} {...props} />
      )}
    />
  );

  return (
    <>
      <title>{`New Booking | ${business.name}`}</title>
      <PageHeader title="New Booking" backTab="jobs" />
      <main className="dash-container dash-container--narrow dash-body dash-form-page">
        <Form
          layout="vertical"
          onFinish={() => void onSubmit()}
          requiredMark={false}
          className="dash-booking-form"
          aria-label="New booking"
        >
          <div className="dash-form-cards">
            <Card title="Date & Time" className="dash-form-card">
              <Field
                control={control}
                name="scheduledDate"
                label="Service Date"
                id="booking-date"
                render={(field, meta) => (
                  <DateField
                    id={meta.id}
                    value={field.value}
                    disablePast
                    onChange={(v) => {
                      field.onChange(v);
                      setValue('timeSlot', '');
                    }}
                    onBlur={field.onBlur}
                    status={meta.status}
                    ariaDescribedBy={meta.describedBy}
                  />
                )}
              />
              <Field
                control={control}
                name="timeSlot"
                label="Time Slot"
                id="booking-slot"
                render={(field, meta) => (
                  <Select
                    id={meta.id}
                    value={field.value || undefined}
                    onChange={(v: string) => field.onChange(v)}
                    onBlur={field.onBlur}
                    options={slotOptions}
                    placeholder={date ? 'Select a time slot' : 'Select a date first'}
                    disabled={!date}
                    loading={availability.isFetching}
                    status={meta.status}
                    aria-describedby={meta.describedBy}
                  />
                )}
              />
              {availability.isError && <Alert type="error" showIcon title="Failed to fetch time slots" />}
            </Card>

            <Card
              title="Service Details"
              className="dash-form-card"
              extra={
                cents(estimate) > 0n ? (
                  <Tag color="blue" className="dash-estimate" aria-live="polite">
                    Estimated Total: {formatMoney(estimate)}
                  </Tag>
                ) : serviceType === 'battery-service' ? (
                  // Booked at $0: the price is agreed on site.
                  <Tag className="dash-estimate" aria-live="polite">
                    Quoted on site
                  </Tag>
                ) : null
              }
            >
              <Field
                control={control}
                name="serviceType"
                label="Service Type"
                id="booking-service"
                render={(field, meta) => (
                  <Select
                    id={meta.id}
                    value={field.value || undefined}
                    onChange={(v: string) => field.onChange(v)}
                    onBlur={field.onBlur}
                    options={SERVICE_OPTIONS}
                    placeholder="Select a service"
                    status={meta.status}
                    aria-describedby={meta.describedBy}
                  />
                )}
              />
              {serviceType === 'new-tyres' && (
                <>
                  <fieldset className="dash-tyre-size">
                    <legend>Tyre Size</legend>
                    <div className="dash-form-grid dash-form-grid--3">
                      {(
                        [
                          ['tyreWidth', 'Width', 3, '205'],
                          ['tyreProfile', 'Profile', 2, '55'],
                          ['tyreRim', 'Rim', 2, '16'],
                        ] as const
                      ).map(([name, label, max, placeholder]) => (
                        <Field
                          key={name}
                          control={control}
                          name={name}
                          label={label}
                          id={`booking-${name}`}
                          render={(field, meta) => (
                            <Input
                              {...field}
                              {...aria(meta)}
                              inputMode="numeric"
                              maxLength={max}
                              placeholder={placeholder}
                              onChange={(e) => field.onChange(digitsOnly(e.target.value, max))}
                            />
                          )}
                        />
                      ))}
                    </div>
                  </fieldset>
                  {needsCallback && (
                    <Alert type="info" showIcon title="Please call for a quote on this tyre size" />
                  )}
                  <div className="dash-form-grid">
                    <Field
                      control={control}
                      name="tyreQuantity"
                      label="Quantity"
                      id="booking-quantity"
                      render={(field, meta) => (
                        <InputNumber
                          {...aria(meta)}
                          value={field.value}
                          min={MIN_TYRE_QUANTITY}
                          max={MAX_TYRE_QUANTITY}
                          precision={0}
                          onChange={(v) => field.onChange(typeof v === 'number' ? v : 4)}
                          onBlur={field.onBlur}
                          style={{ width: '100%' }}
                        />
                      )}
                    />
                    {text('tyreBrand', 'Preferred Brand', 'booking-brand', {}, true)}
                  </div>
                </>
              )}
            </Card>

            <Card title="Customer Details" className="dash-form-card">
              {text('customerName', 'Full Name', 'booking-name', { autoComplete: 'off' })}
              {text('customerPhone', 'Phone Number', 'booking-phone', {
                type: 'tel',
                inputMode: 'tel',
                autoComplete: 'off',
              })}
              {text('customerEmail', 'Email Address', 'booking-email', {
                type: 'email',
                inputMode: 'email',
                autoComplete: 'off',
              })}
            </Card>

            <Card title="Vehicle Details" className="dash-form-card">
              <div className="dash-form-grid">
                {text('vehicleMake', 'Make', 'booking-make')}
                {text('vehicleModel', 'Model', 'booking-model')}
                {text('vehicleYear', 'Year', 'booking-year', { inputMode: 'numeric', maxLength: 4 })}
                {text('vehicleColor', 'Color', 'booking-color')}
              </div>
              <Field
                control={control}
                name="registration"
                label="Registration"
                id="booking-rego"
                render={(field, meta) => (
                  <Input
                    {...field}
                    {...aria(meta)}
                    autoCapitalize="characters"
                    onChange={(e) => field.onChange(e.target.value.toUpperCase())}
                  />
                )}
              />
            </Card>

            <Card title="Service Location" className="dash-form-card">
              <Field
                control={control}
                name="address"
                label="Street Address"
                id="booking-address"
                render={(field, meta) => (
                  <AddressAutocomplete
                    id={meta.id}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    status={meta.status}
                    describedBy={meta.describedBy}
                    onSelect={(s) => {
                      setValue('address', s.streetAddress || s.fullAddress, { shouldValidate: true });
                      setValue('suburb', s.suburb, { shouldValidate: true });
                      setValue('postcode', s.postcode, { shouldValidate: true });
                      void trigger(['address', 'suburb', 'postcode']);
                    }}
                  />
                )}
              />
              <div className="dash-form-grid">
                {text('suburb', 'Suburb', 'booking-suburb')}
                {text('postcode', 'Postcode', 'booking-postcode', { inputMode: 'numeric', maxLength: 4 })}
              </div>
            </Card>

            <Card title="Payment & Notes" className="dash-form-card">
              <Field
                control={control}
                name="paymentMethod"
                label="Payment Method"
                id="booking-payment"
                render={(field, meta) => (
                  <Select
                    id={meta.id}
                    value={field.value}
                    onChange={(v: string) => field.onChange(v)}
                    options={PAYMENT_OPTIONS}
                    status={meta.status}
                    aria-describedby={meta.describedBy}
                  />
                )}
              />
              <Field
                control={control}
                name="notes"
                label="Additional Notes"
                optional
                id="booking-notes"
                render={(field, meta) => (
                  <Input.TextArea {...field} {...aria(meta)} rows={3} maxLength={2000} />
                )}
              />
            </Card>
          </div>

          <div className="dash-form-actions">
            <Button size="large" onClick={() => nav.home('jobs')}>
              Cancel
            </Button>
            <Button
              type="primary"
              size="large"
              htmlType="submit"
              loading={create.isPending}
              disabled={create.isPending || !preconditionsMet}
            >
              {create.isPending ? 'Creating Booking...' : 'Create Booking'}
            </Button>
          </div>
        </Form>
      </main>
    </>
  );
}
