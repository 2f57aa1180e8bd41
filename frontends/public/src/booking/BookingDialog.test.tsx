import '../testing/polyfills';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { formatMoney, gstInInclusive } from '@tyres/kernel';
import {
  addressSuggestions,
  bookingConfirmation,
  prepaidQuote,
  priceQuote,
  tyrePrice,
} from '../testing/fixtures';
import { resetCardSurcharge } from '../site/surcharge';
import { renderWithSite, stubFetch, type StubAnswer, type StubCall } from '../testing/render';
import BookingDialog from './BookingDialog';

// Monday 23 November 2026, 9:30 am in Perth: the 8-10 AM slot of today has started.
const NOW = new Date('2026-11-23T09:30:00+08:00');

const SLOTS = [
  { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
  { slot: '10-12 AM', isAvailable: false, blockedReason: 'Fully booked' },
  { slot: '12-2 PM', isAvailable: true, blockedReason: null },
  { slot: '2-4 PM', isAvailable: false, blockedReason: null },
];

function quoteAnswer(call: StubCall) {
  const body = call.body as {
    serviceType: string;
    quantity: number;
    prepaid: boolean;
    tyreSize: string | null;
  };
  if (body.serviceType === 'battery-service') {
    return {
      json: priceQuote({
        items: [{ description: 'Battery Service (Quote on site)', price: '0.00' }],
        subtotal: '0.00',
        discount: '0.00',
        gst: '0.00',
        total: '0.00',
        callbackRequired: false,
      }),
    };
  }
  if (body.serviceType === 'new-tyres' && !body.tyreSize) {
    return {
      json: priceQuote({
        items: [],
        subtotal: '0.00',
        discount: '0.00',
        gst: '0.00',
        total: '0.00',
        callbackRequired: true,
        message: 'Please call for a quote on this tyre size',
      }),
    };
  }
  // The booking service's rules, in cents: prices include GST, whose share is total ÷ 11 (issue 12).
  const sub = body.serviceType === 'new-tyres' ? 19900n * BigInt(body.quantity) + 8980n : 12980n;
  const discount = body.prepaid ? 3000n : 0n;
  const total = sub - discount;
  return {
    json: priceQuote({
      items: [{ description: 'Service', price: formatMoney(sub) }],
      subtotal: formatMoney(sub),
      discount: formatMoney(discount),
      gst: formatMoney(gstInInclusive(total)),
      total: formatMoney(total),
      callbackRequired: false,
    }),
  };
}

function api(overrides: Record<string, StubAnswer> = {}) {
  return stubFetch({
    'GET /api/time-slots': { json: SLOTS },
    'GET /api/tyre-pricing/*': { json: tyrePrice({ price: '159.00' }) },
    'POST /api/pricing/quote': quoteAnswer,
    'GET /api/addresses/suggestions': { json: addressSuggestions() },
    'POST /api/bookings': {
      status: 201,
      json: bookingConfirmation({ jobId: 'a1b2c3d4-0000-4000-8000-000000000001', jobNumber: 'JOB-000123' }),
    },
    'POST /api/bookings/quote': {
      status: 201,
      json: prepaidQuote({
        bookingToken: 'tok_abc123',
        amount: '258.80',
        jobId: 'a1b2c3d4-0000-4000-8000-000000000002',
      }),
    },
    'POST /api/bookings/*': { status: 201, json: { photos: [] } },
    ...overrides,
  });
}

function setup(props: { onClose?: () => void; initialService?: 'new-tyres' } = {}) {
  const onClose = props.onClose ?? jest.fn();
  const user = userEvent.setup();
  const view = renderWithSite(
    <BookingDialog open onClose={onClose} openSeq={1} initialService={props.initialService} />,
  );
  return { user, onClose, ...view };
}

const next = (user: UserEvent) => user.click(screen.getByRole('button', { name: 'Next' }));

async function chooseDateAndSlot(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Tuesday 24 November 2026' }));
  await user.click(await screen.findByRole('radio', { name: /12-2 PM/ }));
}

async function chooseService(user: UserEvent, label: RegExp) {
  await user.click(screen.getByRole('radio', { name: label }));
}

/** Each step moves focus to its heading (in the next frame): wait for that before typing. */
async function settled() {
  await waitFor(() => expect(document.activeElement?.tagName).toBe('H3'));
}

async function fillLocation(user: UserEvent) {
  await settled();
  await user.type(screen.getByRole('combobox', { name: 'Street address' }), '12 Smi');
  await user.click(await screen.findByRole('option', { name: /12 Smith Street/ }, { timeout: 10_000 }));
  await user.type(screen.getByLabelText('Vehicle make'), 'Toyota');
  await user.type(screen.getByLabelText('Model'), 'Corolla');
  await user.type(screen.getByLabelText('Year'), '2018');
  await user.type(screen.getByLabelText('Registration'), '1abc234');
}

async function fillContact(user: UserEvent) {
  await settled();
  await user.type(screen.getByLabelText('Full name'), 'Sam Driver');
  await user.type(screen.getByLabelText('Phone number'), '0412 345 678');
  await user.type(screen.getByLabelText('Email address'), 'sam@example.com');
}

/** Steps 1 to 5 for a puncture repair (no tyre step). */
async function toContactStep(user: UserEvent) {
  await chooseDateAndSlot(user);
  await next(user);
  await chooseService(user, /Puncture Repair/);
  await next(user);
  await screen.findByText('Step 4 of 7');
  await fillLocation(user);
  await next(user);
  await screen.findByText('Step 5 of 7');
  await next(user);
  await screen.findByText('Step 6 of 7');
}

beforeEach(() => {
  jest.useFakeTimers({
    now: NOW,
    doNotFake: [
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'setImmediate',
      'clearImmediate',
      'queueMicrotask',
      'nextTick',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'performance',
      'hrtime',
    ],
  });
  URL.createObjectURL = jest.fn(() => 'blob:photo');
  URL.revokeObjectURL = jest.fn();
  resetCardSurcharge();
});

afterEach(() => {
  jest.useRealTimers();
  document.getElementById('tyres-toasts')?.remove();
});

describe('booking dialog: steps', () => {
  test('starts at "Step 1 of 7" with its percentage; Next needs a date and a slot', async () => {
    api();
    const { user } = setup();
    expect(screen.getByText('Step 1 of 7')).toBeInTheDocument();
    expect(screen.getByText('14%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Booking progress' })).toHaveAttribute(
      'aria-valuenow',
      '14',
    );

    await next(user);

    expect(await screen.findByText('Please select a date')).toBeInTheDocument();
    expect(screen.getByText('Please select a time slot')).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 7')).toBeInTheDocument();
  });

  test('days before today (Perth) cannot be picked; weeks start on Sunday', async () => {
    api();
    const { user } = setup();
    const headers = within(screen.getByRole('grid')).getAllByRole('columnheader');
    expect(headers[0]).toHaveTextContent('Su');
    const yesterday = screen.getByRole('button', { name: /^Sunday 22 November 2026/ });
    expect(yesterday).toHaveAttribute('aria-disabled', 'true');
    await user.click(yesterday);
    expect(yesterday).toHaveAttribute('aria-pressed', 'false');
  });

  test('weekends are closed: they say so and cannot be picked', async () => {
    api();
    const { user } = setup();
    const saturday = screen.getByRole('button', { name: 'Saturday 28 November 2026 (closed)' });
    expect(saturday).toHaveAttribute('aria-disabled', 'true');
    await user.click(saturday);
    expect(saturday).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Friday 27 November 2026' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  test('passed slots say "Time has passed", unavailable ones their reason or "Unavailable"', async () => {
    const { calls } = api();
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Monday 23 November 2026' }));

    const passed = await screen.findByRole('radio', { name: /8-10 AM/ });
    expect(passed).toBeDisabled();
    expect(passed).toHaveAccessibleDescription('Time has passed');
    expect(screen.getByRole('radio', { name: /10-12 AM/ })).toHaveAccessibleDescription('Fully booked');
    expect(screen.getByRole('radio', { name: /2-4 PM/ })).toHaveAccessibleDescription('Unavailable');
    expect(screen.getByRole('radio', { name: /12-2 PM/ })).toBeEnabled();
    expect(calls.find((c) => c.path === '/api/time-slots')?.search).toBe('?date=2026-11-23');
  });

  test('a slot list that cannot be fetched says "Failed to fetch time slots"', async () => {
    api({ 'GET /api/time-slots': { status: 500, json: { message: 'boom' } } });
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Tuesday 24 November 2026' }));
    expect(await screen.findByText('Failed to fetch time slots')).toBeInTheDocument();
  });

  test('puncture repair goes from step 2 to step 4, and Back from 4 returns to 2', async () => {
    api();
    const { user } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    expect(await screen.findByText('Step 2 of 7')).toBeInTheDocument();
    await next(user);
    expect(await screen.findByText('Please select a service')).toBeInTheDocument();

    await chooseService(user, /Puncture Repair/);
    await next(user);
    expect(await screen.findByText('Step 4 of 7')).toBeInTheDocument();
    expect(screen.getByText('57%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Step 2 of 7')).toBeInTheDocument();
  });

  test('battery service also skips the tyre step; new tyres do not', async () => {
    api();
    const { user } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Mobile Battery Service/);
    await next(user);
    expect(await screen.findByText('Step 4 of 7')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await chooseService(user, /New Tyres/);
    await next(user);
    expect(await screen.findByText('Step 3 of 7')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tyre details' })).toBeInTheDocument();
  });

  test('tyre size takes digits only; 1 tyre brings the single-tyre warning; the price is live', async () => {
    const { calls } = api();
    const { user } = setup({ initialService: 'new-tyres' });
    await chooseDateAndSlot(user);
    await next(user);
    expect(screen.getByRole('radio', { name: /New Tyres/ })).toBeChecked();
    await next(user);
    await screen.findByText('Step 3 of 7');

    expect(screen.getByRole('radio', { name: '1' })).toBeChecked(); // default quantity
    expect(await screen.findByText('Please call for a quote on this tyre size')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Width'), '2x05');
    await user.type(screen.getByLabelText('Profile'), '5a5');
    await user.type(screen.getByLabelText('Rim'), '166');
    expect(screen.getByLabelText('Width')).toHaveValue('205');
    expect(screen.getByLabelText('Profile')).toHaveValue('55');
    expect(screen.getByLabelText('Rim')).toHaveValue('16');
    expect(await screen.findByText('$159.00')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/tyre-pricing/205%2F55R16')).toBe(true);

    await user.click(screen.getByRole('radio', { name: '2' }));
    await user.click(screen.getByRole('radio', { name: '1' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Replacing just one tyre?' });
    await user.click(within(warning).getByRole('button', { name: 'Make it 2 tyres' }));
    expect(screen.getByRole('radio', { name: '2' })).toBeChecked();
    // 2 tyres at 199 + 89.80 callout - 30 prepaid; the GST in the label is the server's (457.80 ÷ 11, not 10%).
    expect(await screen.findByText('$457.80')).toBeInTheDocument();
    expect(screen.getByText('Total (inc. GST $41.62)')).toBeInTheDocument();
    expect(screen.getByLabelText('was $487.80')).toBeInTheDocument();
    const quote = calls.filter((c) => c.path === '/api/pricing/quote').pop();
    expect(quote?.body).toEqual({
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      quantity: 2,
      prepaid: true,
    });
  });

  test('a whole tyre size typed into Width fills width, profile and rim', async () => {
    api();
    const { user } = setup({ initialService: 'new-tyres' });
    await chooseDateAndSlot(user);
    await next(user);
    await next(user);
    await screen.findByText('Step 3 of 7');
    // The dialog moves focus to the new step's heading after it renders: paste only once Width has it, or the text
    // lands on the heading (a race seen once in CI).
    await settled();
    await user.click(screen.getByLabelText('Width'));
    await waitFor(() => expect(screen.getByLabelText('Width')).toHaveFocus());
    await user.paste('265/65R17');
    await waitFor(() => expect(screen.getByLabelText('Width')).toHaveValue('265'));
    expect(screen.getByLabelText('Profile')).toHaveValue('65');
    expect(screen.getByLabelText('Rim')).toHaveValue('17');
  });

  test('location and vehicle: suggestions fill address, suburb and postcode; registration upper-cased', async () => {
    const { calls } = api();
    const { user } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Puncture Repair/);
    await next(user);
    await screen.findByText('Step 4 of 7');
    await next(user);
    expect(await screen.findByText('Please enter your address')).toBeInTheDocument();
    expect(screen.getByText('Suburb is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid postcode')).toBeInTheDocument();
    expect(screen.getByText('Vehicle make is required')).toBeInTheDocument();
    expect(screen.getByText('Vehicle model is required')).toBeInTheDocument();
    expect(screen.getByText('Registration is required')).toBeInTheDocument();

    const address = screen.getByRole('combobox', { name: 'Street address' });
    await user.type(address, '12');
    await new Promise((r) => setTimeout(r, 450));
    expect(calls.some((c) => c.path === '/api/addresses/suggestions')).toBe(false); // fewer than 3 characters
    await user.clear(address);
    await user.type(address, '12 Smi');
    await user.click(await screen.findByRole('option', { name: /12 Smith Street/ }, { timeout: 10_000 }));
    await user.type(screen.getByLabelText('Registration'), '1abc234');
    expect(address).toHaveValue('12 Smith Street');
    expect(screen.getByLabelText('Suburb')).toHaveValue('Rockingham');
    expect(screen.getByLabelText('Postcode')).toHaveValue('6168');
    expect(screen.getByLabelText('Registration')).toHaveValue('1ABC234');
    const searches = calls.filter((c) => c.path === '/api/addresses/suggestions');
    expect(searches).toHaveLength(1); // debounced: one call for "12 Smi"
    expect(new URLSearchParams(searches[0]?.search).get('q')).toBe('12 Smi');
  });

  test('address suggestions that fail ask for the address to be typed', async () => {
    api({ 'GET /api/addresses/suggestions': { status: 503, json: { message: 'down' } } });
    const { user } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Puncture Repair/);
    await next(user);
    await settled(); // the step moves focus to its heading; typing before that would lose keystrokes
    await user.type(screen.getByRole('combobox', { name: 'Street address' }), '12 Smith');
    expect(
      await screen.findByText(
        'Address suggestions unavailable - please enter manually',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
  });
});

describe('booking dialog: photos', () => {
  const png = (name: string) => new File(['x'], name, { type: 'image/png' });

  async function toPhotos(user: UserEvent) {
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Puncture Repair/);
    await next(user);
    await fillLocation(user);
    await next(user);
    await screen.findByText('Step 5 of 7');
  }

  test('Upload Photos, then Add More Photos; names cut to 15 characters; remove', async () => {
    api();
    const { user } = setup();
    await toPhotos(user);
    expect(screen.getByRole('heading', { name: 'Upload Photos' })).toBeInTheDocument();
    expect(screen.getByText('No tyre knowledge needed')).toBeInTheDocument();
    expect(screen.getByText('Use good lighting')).toBeInTheDocument();
    expect(screen.getByText('Take photos from multiple angles')).toBeInTheDocument();
    expect(screen.getByText('Include close-ups of any damage or wear')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Camera/ })).toBeInTheDocument();
    expect(screen.getByTestId('photo-camera-input')).toHaveAttribute('capture', 'environment');

    await user.upload(screen.getByTestId('photo-gallery-input'), [png('front-left-tyre-photo.png')]);
    expect(screen.getByRole('heading', { name: 'Add More Photos' })).toBeInTheDocument();
    expect(screen.getByText('front-left-tyre...')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove front-left-tyre-photo.png' }));
    expect(screen.getByRole('heading', { name: 'Upload Photos' })).toBeInTheDocument();
  });

  test('a batch over the maximum (3 without a tyre size) is rejected whole with a destructive toast', async () => {
    api();
    const { user } = setup();
    await toPhotos(user);
    await user.upload(screen.getByTestId('photo-gallery-input'), [
      png('a.png'),
      png('b.png'),
      png('c.png'),
      png('d.png'),
    ]);
    expect(await screen.findByText('Too many files')).toBeInTheDocument();
    expect(screen.getByText('Maximum 3 files allowed.')).toBeInTheDocument();
    expect(screen.getByText('Too many files').closest('.tyres-toast')).toHaveClass(
      'tyres-toast--destructive',
    );
    expect(screen.queryByRole('list', { name: /photos? added/ })).not.toBeInTheDocument();
  });

  test('drag and drop highlights the area and adds the photos; wrong types are skipped with a toast', async () => {
    api();
    const { user } = setup();
    await toPhotos(user);
    const zone = screen.getByText('Drag and drop photos here, or choose:').closest('.bk-drop') as HTMLElement;
    const files = [png('drop.png'), new File(['x'], 'notes.txt', { type: 'text/plain' })];
    const dataTransfer = { files, dropEffect: 'none', types: ['Files'] };
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone).toHaveClass('bk-drop--active');
    fireEvent.drop(zone, { dataTransfer });
    expect(zone).not.toHaveClass('bk-drop--active');
    expect(await screen.findByText('Invalid file type')).toBeInTheDocument();
    expect(screen.getByText('Please upload jpeg, png, webp files only.')).toBeInTheDocument();
    expect(screen.getByText('drop.png')).toBeInTheDocument();
    expect(screen.getByText(/notes\.txt was not added/)).toBeInTheDocument();
  });
});

describe('booking dialog: submitting', () => {
  test('onsite: create, then upload photos, then the confirmation; closing it resets the form', async () => {
    const { calls } = api();
    const onClose = jest.fn();
    const { user } = setup({ onClose });
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Puncture Repair/);
    await next(user);
    await fillLocation(user);
    await next(user);
    await user.upload(await screen.findByTestId('photo-gallery-input'), [
      new File(['x'], 'tyre.jpg', { type: 'image/jpeg' }),
    ]);
    await next(user);
    await fillContact(user);
    expect(screen.getByRole('button', { name: 'Confirm & Pay' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Cash on Delivery/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeInTheDocument();
    expect(screen.getByText('JOB-000123')).toBeInTheDocument();
    expect(screen.getByText('Step 7 of 7')).toBeInTheDocument();

    const order = calls.map((c) => `${c.method} ${c.path}`).filter((c) => /bookings|time-slots/.test(c));
    const booking = order.indexOf('POST /api/bookings');
    const recheck = order.lastIndexOf('GET /api/time-slots', booking);
    const photos = order.indexOf('POST /api/bookings/a1b2c3d4-0000-4000-8000-000000000001/photos');
    expect(recheck).toBeGreaterThan(-1);
    expect(booking).toBeGreaterThan(recheck);
    expect(photos).toBeGreaterThan(booking);

    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/bookings');
    expect(sent?.headers['Idempotency-Key']).toEqual(expect.any(String));
    expect(sent?.body).toEqual({
      customer: { name: 'Sam Driver', email: 'sam@example.com', phone: '0412 345 678' },
      vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
      job: {
        serviceType: 'puncture-repair',
        scheduledDate: '2026-11-24',
        timeSlot: '12-2 PM',
        address: '12 Smith Street',
        suburb: 'Rockingham',
        postcode: '6168',
        tyreSize: null,
        notes: null,
        paymentMethod: 'onsite',
      },
    });
    const upload = calls.find((c) => c.path.endsWith('/photos'));
    expect(upload?.body).toBeInstanceOf(FormData);
    expect((upload?.body as FormData).get('type')).toBe('tyre-condition');
    expect((upload?.body as FormData).getAll('photos')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
    expect(await screen.findByText('Step 1 of 7')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tuesday 24 November 2026' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  test('step 6 keeps the total next to the confirm button, for the payment method chosen', async () => {
    api();
    const { user } = setup();
    await toContactStep(user);
    // Prepaid is paid by card: 99.80 + the seeded 1.7% surcharge (1.6966, half-up 1.70).
    expect(await screen.findByText('Total to pay now: $101.50')).toBeInTheDocument();
    expect(screen.getByText('Total (inc. GST $9.07)')).toBeInTheDocument(); // 99.80 ÷ 11
    expect(screen.getByText('Card surcharge (1.7%)').nextSibling).toHaveTextContent('$1.70');
    expect(screen.getByText('To pay by card').nextSibling).toHaveTextContent('$101.50');
    await user.click(screen.getByRole('radio', { name: /Cash on Delivery/ }));
    expect(await screen.findByText('Total to pay on site: $129.80')).toBeInTheDocument();
    expect(screen.getByText('Total (inc. GST $11.80)')).toBeInTheDocument(); // 129.80 ÷ 11, not 12.98
    expect(screen.queryByText(/Card surcharge/)).toBeNull();
  });

  test('the card surcharge is the rate in force (billing GET /api/payments/config), by the kernel rule', async () => {
    api({ 'GET /api/payments/config': { json: { mode: 'test', testMode: true, surchargeRate: '0.015' } } });
    const { user } = setup();
    await toContactStep(user);
    // 99.80 at 1.5%: 1.497, half-up 1.50.
    expect(await screen.findByText('Total to pay now: $101.30')).toBeInTheDocument();
    expect(screen.getByText('Card surcharge (1.5%)').nextSibling).toHaveTextContent('$1.50');
    expect(screen.queryByText(/1\.7%/)).toBeNull();
  });

  test('prepaid: quote, then "Continue to Secure Payment" goes to the checkout', async () => {
    const { calls } = api();
    const onClose = jest.fn();
    const { user } = setup({ onClose });
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));

    const cont = await screen.findByRole('button', { name: 'Continue to Secure Payment' });
    // The quote's own rate (fixture: 1.70): 258.80 + 4.40 (4.3996 half-up).
    expect(
      screen.getByText(
        /Pay \$263\.20 by card to confirm it \(\$258\.80 plus the 1\.7% card surcharge of \$4\.40\)/,
      ),
    ).toBeInTheDocument();
    const quote = calls.find((c) => c.path === '/api/bookings/quote');
    expect((quote?.body as { job: { paymentMethod: string } }).job.paymentMethod).toBe('prepaid');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/bookings')).toBe(false);

    await user.click(cont);
    expect(onClose).toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/checkout/tok_abc123');
  });

  test('prepaid: the confirmation states the rate the quote stored (what checkout charges), not a constant', async () => {
    api({
      'GET /api/payments/config': { json: { mode: 'test', testMode: true, surchargeRate: '0.015' } },
      'POST /api/bookings/quote': {
        status: 201,
        json: prepaidQuote({ bookingToken: 'tok_abc123', amount: '258.80', cardSurchargeRate: '2.00' }),
      },
    });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));
    await screen.findByRole('button', { name: 'Continue to Secure Payment' });
    // 258.80 at 2%: 5.176, half-up 5.18.
    expect(
      screen.getByText(
        /Pay \$263\.98 by card to confirm it \(\$258\.80 plus the 2% card surcharge of \$5\.18\)/,
      ),
    ).toBeInTheDocument();
  });

  test('onsite right after switching from prepaid: the booking carries the on-site price, never the prepaid one', async () => {
    // The on-site price is slow to arrive: the prepaid price is still on screen when Confirm Booking is pressed.
    const { calls } = api({
      'POST /api/pricing/quote': async (call) => {
        if (!(call.body as { prepaid: boolean }).prepaid) await new Promise((r) => setTimeout(r, 400));
        return quoteAnswer(call);
      },
    });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await screen.findByText('$99.80');
    await user.click(screen.getByRole('radio', { name: /Cash on Delivery/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/bookings');
    // Booking prices the job itself: the total on screen is not sent.
    expect((sent?.body as { job: Record<string, unknown> }).job).toMatchObject({ paymentMethod: 'onsite' });
    expect((sent?.body as { job: Record<string, unknown> }).job).not.toHaveProperty('customerValue');
    expect(screen.getByText(/You pay \$129\.80 on site/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/bookings/quote')).toBe(false);
  });

  test('prepaid never goes to POST /api/bookings; a callback quote found at submit books on site without a price', async () => {
    const { calls } = api({
      'POST /api/pricing/quote': (call) =>
        calls.filter((c) => c.path === '/api/pricing/quote').length > 1
          ? {
              json: {
                items: [],
                subtotal: '0.00',
                discount: '0.00',
                gst: '0.00',
                total: '0.00',
                callbackRequired: true,
                message: 'Please call for a quote on this tyre size',
              },
            }
          : quoteAnswer(call),
    });
    const { user, queryClient } = setup();
    await toContactStep(user);
    await fillContact(user);
    // The price changed on the server since it was shown (e.g. the tyre is out of stock): the cached quote is
    // dropped, so the booking is priced afresh.
    queryClient.removeQueries({ queryKey: ['public', 'quote'] });
    await user.click(screen.getByRole('button', { name: /Confirm/ }));
    await screen.findByText('Step 7 of 7');
    const bookings = calls.filter((c) => c.method === 'POST' && c.path === '/api/bookings');
    for (const b of bookings) {
      expect((b.body as { job: { paymentMethod: string } }).job.paymentMethod).toBe('onsite');
    }
    expect(bookings).toHaveLength(1);
    expect((bookings[0]?.body as { job: Record<string, unknown> }).job.customerValue).toBeUndefined();
    expect(calls.some((c) => c.path === '/api/bookings/quote')).toBe(false);
  });

  test('battery service is paid on site: prepaid is not offered and the button reads "Confirm Booking"', async () => {
    api();
    const { user } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Mobile Battery Service/);
    await next(user);
    await fillLocation(user);
    await next(user);
    await next(user);
    await screen.findByText('Step 6 of 7');
    await waitFor(() => expect(screen.getByRole('radio', { name: /Prepaid Online/ })).toBeDisabled());
    expect(screen.getByRole('radio', { name: /Cash on Delivery/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeInTheDocument();
    expect(screen.getByText('Battery service is quoted on site, so you pay on site.')).toBeInTheDocument();
  });

  test('contact details are validated with the spec messages', async () => {
    api();
    const { user } = setup();
    await toContactStep(user);
    await user.type(screen.getByLabelText('Phone number'), '12345');
    await user.type(screen.getByLabelText('Email address'), 'sam@');
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Valid phone number required')).toBeInTheDocument();
    expect(screen.getByText('Valid email required')).toBeInTheDocument();
  });

  test('a 409 refreshes the slot lists, clears the slot and says "Time Slot Unavailable"', async () => {
    const { calls } = api({
      'POST /api/bookings/quote': {
        status: 409,
        json: {
          message: 'This time slot was just booked by someone else. Please select a different time slot.',
        },
      },
    });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    const before = calls.filter((c) => c.path === '/api/time-slots').length;
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));

    expect(await screen.findByText('Time Slot Unavailable')).toBeInTheDocument();
    expect(
      screen.getByText(
        'This time slot was just booked by someone else. Please select a different time slot.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Step 1 of 7')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /12-2 PM/ })).not.toBeChecked();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/time-slots').length).toBeGreaterThan(before + 1),
    );
  });

  test('a slot taken while filling in is caught by the re-check before booking', async () => {
    let taken = false;
    const { calls } = api({
      'GET /api/time-slots': () => ({
        json: SLOTS.map((s) =>
          s.slot === '12-2 PM' && taken ? { ...s, isAvailable: false, blockedReason: 'Booked' } : s,
        ),
      }),
    });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    taken = true;
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));
    expect(
      await screen.findByText('This time slot is no longer available. Please select a different time slot.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Step 1 of 7')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/bookings/quote')).toBe(false);
  });

  test('other quote failures: "Booking Failed" with the server message', async () => {
    api({
      'POST /api/bookings/quote': { status: 400, json: { message: 'Invalid date or time slot selected' } },
    });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));
    expect(await screen.findByText('Booking Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid date or time slot selected')).toBeInTheDocument();
    expect(screen.getByText('Step 6 of 7')).toBeInTheDocument();
  });

  test('quote failure without a server message: the default text', async () => {
    api({ 'POST /api/bookings/quote': { status: 502, text: '<html>bad gateway</html>' } });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }));
    expect(
      await screen.findByText('There was an error creating your booking. Please try again.'),
    ).toBeInTheDocument();
  });

  test('onsite creation failure: "Booking Error"', async () => {
    api({ 'POST /api/bookings': { status: 500, json: { message: 'database down' } } });
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('radio', { name: /Cash on Delivery/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking Error')).toBeInTheDocument();
    expect(
      screen.getByText('There was an issue creating your booking. Please try again.'),
    ).toBeInTheDocument();
  });
});

describe('booking dialog: keyboard', () => {
  test('arrow keys move through the calendar and Enter picks the day', async () => {
    api();
    const { user } = setup();
    const today = screen.getByRole('button', { name: 'Monday 23 November 2026' });
    expect(today).toHaveAttribute('tabindex', '0');
    await settled(); // opening focuses the step heading
    await user.tab();
    await user.tab();
    expect(today).toHaveFocus(); // heading -> next month (previous month is disabled) -> the focusable day
    today.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Tuesday 24 November 2026' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Tuesday 1 December 2026' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Tuesday 1 December 2026' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await act(async () => undefined);
  });
});

describe('booking dialog: reload in the middle', () => {
  test('what was entered is kept for this tab and comes back at the same step after a reload', async () => {
    api();
    const { user, unmount } = setup();
    await chooseDateAndSlot(user);
    await next(user);
    await chooseService(user, /Puncture Repair/);
    await next(user);
    await fillLocation(user);
    await next(user);
    await user.upload(await screen.findByTestId('photo-gallery-input'), [
      new File(['x'], 'tyre.jpg', { type: 'image/jpeg' }),
    ]);
    unmount(); // the page is reloaded

    setup();
    expect(await screen.findByText('Step 5 of 7')).toBeInTheDocument();
    expect(screen.getByText(/the photo you\s+added need to be added again/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Step 4 of 7')).toBeInTheDocument();
    expect(screen.getByLabelText('Registration')).toHaveValue('1ABC234');
    expect(screen.getByLabelText('Suburb')).toHaveValue('Rockingham');
  });

  test('a saved date that is now in the past is dropped: back to step 1', async () => {
    api();
    window.sessionStorage.setItem(
      'tyres.booking.draft',
      JSON.stringify({
        v: 1,
        step: 4,
        photoCount: 0,
        values: { date: '2026-11-20', timeSlot: '12-2 PM', serviceType: 'puncture-repair' },
      }),
    );
    setup();
    expect(await screen.findByText('Step 1 of 7')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tuesday 24 November 2026' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  test('once the booking is made the draft is gone (a reload cannot book it twice)', async () => {
    api();
    const { user } = setup();
    await toContactStep(user);
    await fillContact(user);
    await user.click(screen.getByRole('radio', { name: /Cash on Delivery/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(window.sessionStorage.getItem('tyres.booking.draft')).toBeNull();
  });
});
