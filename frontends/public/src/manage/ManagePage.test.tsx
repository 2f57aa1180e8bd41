import '../testing/polyfills';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { addDays, isWeekend, perthToday } from '@tyres/kernel';
import {
  cancelledManagedBooking,
  managedBooking,
  prepaidManagedBooking,
  timeSlots,
} from '../testing/fixtures';
import { renderWithSite, stubFetch, type StubAnswer } from '../testing/render';
import { formatLongDate } from '../site/format';
import ManagePage from './ManagePage';

const TOKEN = 'tok_manage_0123456789';

function renderManage(routes: Record<string, StubAnswer>, path = `/manage/${TOKEN}`) {
  const api = stubFetch(routes);
  const view = renderWithSite(
    <Routes>
      <Route path="/manage/:token" element={<ManagePage />} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    { path },
  );
  return { ...api, ...view, user: userEvent.setup() };
}

/** A business day a few days ahead of today in Perth (the calendar's first bookable days). */
function businessDayAhead(days: number): string {
  let date = addDays(perthToday(), days);
  while (isWeekend(date)) date = addDays(date, 1);
  return date;
}

async function pickDay(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, date: string) {
  for (let i = 0; i < 3 && !within(form).queryByRole('button', { name: formatLongDate(date) }); i++) {
    await user.click(within(form).getByRole('button', { name: 'Next month' }));
  }
  await user.click(within(form).getByRole('button', { name: formatLongDate(date) }));
}

afterEach(() => {
  document.getElementById('tyres-toasts')?.remove();
  document.head.querySelectorAll('[data-tyres-meta]').forEach((el) => el.remove());
});

describe('manage my booking (/manage/{token})', () => {
  test('shows the booking: reference, service, date and slot, address, vehicle, phone, notes, price, payment', async () => {
    const { calls } = renderManage({ [`GET /api/manage/${TOKEN}`]: { json: managedBooking() } });
    const details = await screen.findByRole('region', { name: 'Booking details' });
    for (const text of [
      'JOB-000123',
      'New Tyres',
      'Tuesday 24 November 2026, 12-2 PM',
      '12 Smith Street, Rockingham 6168',
      '2018 Toyota Corolla, 1ABC234',
      '0412 345 678',
      'Gate code 1234',
      '2 × 205/55R16',
      '$457.80 (incl. GST)',
      'Pay on site after the job',
    ]) {
      expect(within(details).getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText('Confirmed')).toBeInTheDocument();
    // Pay on site, 24+ hours ahead: cancelling costs nothing, said before any button is pressed.
    expect(screen.getByText(/^Cancelling now is free: there is nothing to pay\./)).toBeInTheDocument();
    for (const name of ['Reschedule', 'Correct details', 'Add photos', 'Cancel booking']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
    expect(calls[0]?.path).toBe(`/api/manage/${TOKEN}`);
  });

  test('not indexed, no referrer, and the token is not in the canonical link', async () => {
    renderManage({ [`GET /api/manage/${TOKEN}`]: { json: managedBooking() } });
    await screen.findByRole('region', { name: 'Booking details' });
    await waitFor(() =>
      expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex'),
    );
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
    const canonical = document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? '';
    expect(canonical).toBe('https://www.example.com.au/manage');
    expect(document.head.innerHTML).not.toContain(TOKEN);
  });

  test('an unknown or expired link: a clear page with the number to call', async () => {
    renderManage({
      [`GET /api/manage/${TOKEN}`]: {
        status: 404,
        json: {
          message: 'This link is not valid or has expired. Please call us to manage your booking.',
          code: 'not_found',
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeInTheDocument();
    expect(
      screen.getByText('This link is not valid or has expired. Please call us to manage your booking.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call 08 5550 1234' })).toHaveAttribute(
      'href',
      'tel:+61855501234',
    );
    expect(screen.queryByRole('region', { name: 'Booking details' })).not.toBeInTheDocument();
  });

  test('a failure other than 404 offers Retry (and the call button), not "not valid"', async () => {
    let attempts = 0;
    const { user } = renderManage({
      [`GET /api/manage/${TOKEN}`]: () =>
        ++attempts === 1 ? { status: 502, text: 'Bad gateway' } : { json: managedBooking() },
    });
    expect(await screen.findByRole('heading', { name: "We couldn't load your booking" })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Booking details' })).toBeInTheDocument();
  });

  test('a cancelled booking shows as cancelled, with its refund, and offers no actions', async () => {
    renderManage({ [`GET /api/manage/${TOKEN}`]: { json: cancelledManagedBooking() } });
    const notice = await screen.findByRole('status', { name: 'This booking has been cancelled' });
    expect(within(notice).getByText('Cancelled on Saturday 21 November 2026.')).toBeInTheDocument();
    expect(
      within(notice).getByText('A refund of $465.58 is being returned to your card.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Cancelled')).toBeInTheDocument();
    for (const name of ['Reschedule', 'Correct details', 'Add photos', 'Cancel booking']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  test('a booking under way can no longer be changed online', async () => {
    renderManage({
      [`GET /api/manage/${TOKEN}`]: {
        json: managedBooking({
          status: 'in-progress',
          can: { reschedule: false, cancel: false, change: false },
          cancellation: null,
        }),
      },
    });
    expect(
      await screen.findByText('This booking can no longer be changed online. Please call us.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
  });

  describe('cancel', () => {
    test.each([
      ['full_refund', 'Cancelling now: full refund of $465.58 to your card.'],
      ['half_refund', 'Cancelling now: 50% ($232.79) refunded to your card, $232.79 kept.'],
      ['no_refund', 'No refund: less than 12 hours before your booking. The $465.58 you paid is kept.'],
    ] as const)(
      'prepaid, %s: the terms are fetched again and stated before confirming',
      async (band, words) => {
        let gets = 0;
        const { user, calls } = renderManage({
          // The page was opened in the 24+ band; by the time Cancel is pressed the band may have changed.
          [`GET /api/manage/${TOKEN}`]: () => ({
            json: ++gets === 1 ? prepaidManagedBooking('full_refund') : prepaidManagedBooking(band),
          }),
          [`POST /api/manage/${TOKEN}/cancel`]: { json: cancelledManagedBooking() },
        });
        await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
        const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
        expect(await within(dialog).findByText(words)).toBeInTheDocument();
        expect(gets).toBe(2);
        expect(within(dialog).getByRole('button', { name: 'Keep my booking' })).toHaveFocus();
        await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Car sold');
        await user.click(within(dialog).getByRole('button', { name: 'Yes, cancel booking' }));
        expect(
          await screen.findByRole('status', { name: 'This booking has been cancelled' }),
        ).toBeInTheDocument();
        // What the dialog stated is what the customer consented to: sent, so booking cancels only under it.
        const shown = prepaidManagedBooking(band).cancellation!;
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
          reason: 'Car sold',
          expected: { band, refund: shown.refund, fee: shown.fee },
        });
        expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
      },
    );

    test('terms changed between stating and confirming (409 terms_changed): the new terms are shown, nothing cancelled', async () => {
      let gets = 0;
      const { user, calls } = renderManage({
        [`GET /api/manage/${TOKEN}`]: () => ({
          json: ++gets <= 2 ? prepaidManagedBooking('full_refund') : prepaidManagedBooking('half_refund'),
        }),
        [`POST /api/manage/${TOKEN}/cancel`]: {
          status: 409,
          json: {
            code: 'terms_changed',
            message:
              'The cancellation terms changed while this page was open (the booking is now closer to its start). Please check the new terms and confirm again.',
          },
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
      expect(
        await within(dialog).findByText('Cancelling now: full refund of $465.58 to your card.'),
      ).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Yes, cancel booking' }));
      expect(
        await screen.findByText(/The cancellation terms changed while this page was open/),
      ).toBeInTheDocument();
      expect(
        await within(dialog).findByText('Cancelling now: 50% ($232.79) refunded to your card, $232.79 kept.'),
      ).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      expect(
        screen.queryByRole('status', { name: 'This booking has been cancelled' }),
      ).not.toBeInTheDocument();
    });

    test('pay on site in the 50% band: the fee to be invoiced', async () => {
      const booking = managedBooking({
        cancellation: {
          band: 'half_refund',
          description: '12 to 24 hours before the booking: 50% refund',
          hoursBefore: 20,
          refundPercent: 50,
          refund: '0.00',
          fee: '228.90',
        },
      });
      const { user } = renderManage({ [`GET /api/manage/${TOKEN}`]: { json: booking } });
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
      expect(
        await within(dialog).findByText(
          'Cancelling now: a cancellation fee of $228.90 (50% of the price) will be invoiced.',
        ),
      ).toBeInTheDocument();
      expect(
        within(dialog).getByText('Our policy: 12 to 24 hours before the booking: 50% refund.'),
      ).toBeInTheDocument();
    });

    test('Keep my booking closes the dialog without cancelling', async () => {
      const { user, calls } = renderManage({ [`GET /api/manage/${TOKEN}`]: { json: managedBooking() } });
      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this booking?' });
      await within(dialog).findByText('Cancelling now is free: there is nothing to pay.');
      await user.click(within(dialog).getByRole('button', { name: 'Keep my booking' }));
      await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
      expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });
  });

  describe('reschedule', () => {
    const newDate = businessDayAhead(3);

    test('a free slot of another date: the booking moves and the page shows the new time', async () => {
      const moved = managedBooking({ scheduledDate: newDate, timeSlot: '2-4 PM' });
      const { user, calls } = renderManage({
        [`GET /api/manage/${TOKEN}`]: { json: managedBooking() },
        'GET /api/time-slots': { json: timeSlots() },
        [`POST /api/manage/${TOKEN}/reschedule`]: { json: moved },
      });
      await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
      const form = screen.getByRole('form', { name: 'Choose a new date and time' });
      await pickDay(user, form, newDate);
      // The dialog's slot list: the taken slot is disabled with its reason.
      expect(await within(form).findByRole('radio', { name: /^8-10 AM/ })).toBeDisabled();
      expect(within(form).getByText('Fully booked')).toBeInTheDocument();
      await user.click(within(form).getByRole('radio', { name: /^2-4 PM/ }));
      await user.click(within(form).getByRole('button', { name: 'Move my booking' }));
      const details = screen.getByRole('region', { name: 'Booking details' });
      expect(await within(details).findByText(`${formatLongDate(newDate)}, 2-4 PM`)).toBeInTheDocument();
      expect(screen.getByText('Booking moved')).toBeInTheDocument();
      expect(calls.find((c) => c.path.endsWith('/reschedule'))?.body).toEqual({
        scheduledDate: newDate,
        timeSlot: '2-4 PM',
      });
    });

    test('the slot just taken (409): said as the booking dialog says it, the slot cleared, the lists refreshed', async () => {
      let slotLists = 0;
      const { user } = renderManage({
        [`GET /api/manage/${TOKEN}`]: { json: managedBooking() },
        'GET /api/time-slots': () => {
          slotLists += 1;
          return { json: timeSlots() };
        },
        [`POST /api/manage/${TOKEN}/reschedule`]: {
          status: 409,
          json: {
            message: 'This time slot was just booked by someone else. Please select a different time slot.',
            code: 'slot_taken',
          },
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
      const form = screen.getByRole('form', { name: 'Choose a new date and time' });
      await pickDay(user, form, newDate);
      await user.click(await within(form).findByRole('radio', { name: /^12-2 PM/ }));
      await user.click(within(form).getByRole('button', { name: 'Move my booking' }));
      expect(await screen.findByText('Time Slot Unavailable')).toBeInTheDocument();
      expect(
        screen.getByText(
          'This time slot was just booked by someone else. Please select a different time slot.',
        ),
      ).toBeInTheDocument();
      expect(within(form).getByRole('radio', { name: /^12-2 PM/ })).not.toBeChecked();
      await waitFor(() => expect(slotLists).toBe(2));
      // Still on the old time.
      expect(screen.getByText('Tuesday 24 November 2026, 12-2 PM')).toBeInTheDocument();
    });

    test('the booking own slot is not offered on its own date', async () => {
      const today = businessDayAhead(2);
      const { user } = renderManage({
        [`GET /api/manage/${TOKEN}`]: { json: managedBooking({ scheduledDate: today, timeSlot: '12-2 PM' }) },
        'GET /api/time-slots': { json: timeSlots() },
      });
      await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
      const form = screen.getByRole('form', { name: 'Choose a new date and time' });
      await pickDay(user, form, today);
      expect(await within(form).findByRole('radio', { name: /^12-2 PM/ })).toBeDisabled();
      expect(within(form).getByText('Your current time')).toBeInTheDocument();
    });
  });

  describe('correct details', () => {
    test('changed fields only are sent; the server 400 messages appear under their fields', async () => {
      let patches = 0;
      const { user, calls } = renderManage({
        [`GET /api/manage/${TOKEN}`]: { json: managedBooking() },
        [`PATCH /api/manage/${TOKEN}`]: () =>
          ++patches === 1
            ? {
                status: 400,
                json: {
                  message: 'Valid phone number required',
                  code: 'validation_failed',
                  details: [{ path: 'phone', message: 'Valid phone number required' }],
                },
              }
            : { json: managedBooking({ phone: '0499 888 777', notes: null }) },
      });
      await user.click(await screen.findByRole('button', { name: 'Correct details' }));
      const form = screen.getByRole('form', { name: 'Correct your details' });
      const phone = within(form).getByLabelText('Phone number');
      await user.clear(phone);
      await user.type(phone, '12');
      await user.clear(within(form).getByLabelText('Notes for the technician (optional)'));
      await user.click(within(form).getByRole('button', { name: 'Save changes' }));
      expect(await within(form).findByText('Valid phone number required')).toBeInTheDocument();
      expect(phone).toHaveAttribute('aria-invalid', 'true');
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ phone: '12', notes: null });

      await user.clear(phone);
      await user.type(phone, '0499 888 777');
      await user.click(within(form).getByRole('button', { name: 'Save changes' }));
      const details = screen.getByRole('region', { name: 'Booking details' });
      expect(await within(details).findByText('0499 888 777')).toBeInTheDocument();
      expect(screen.queryByRole('form', { name: 'Correct your details' })).not.toBeInTheDocument();
    });

    test('the vehicle is sent whole; a year error from the server sits under Year', async () => {
      const { user, calls } = renderManage({
        [`GET /api/manage/${TOKEN}`]: { json: managedBooking() },
        [`PATCH /api/manage/${TOKEN}`]: {
          status: 400,
          json: { message: 'Vehicle year must be between 1900 and 2027', code: 'invalid_year' },
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Correct details' }));
      const form = screen.getByRole('form', { name: 'Correct your details' });
      await user.clear(within(form).getByLabelText('Year'));
      await user.type(within(form).getByLabelText('Year'), '1899');
      await user.type(within(form).getByLabelText('Colour (optional)'), 'Blue');
      await user.click(within(form).getByRole('button', { name: 'Save changes' }));
      // No field path in this answer: the form's own message.
      expect(await within(form).findByText('Vehicle year must be between 1900 and 2027')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        vehicle: { make: 'Toyota', model: 'Corolla', year: 1899, color: 'Blue', registration: '1ABC234' },
      });
    });
  });

  test('add photos: the booking dialog uploader, up to what the booking may still carry', async () => {
    let gets = 0;
    const { user, calls } = renderManage({
      [`GET /api/manage/${TOKEN}`]: () => ({ json: managedBooking({ photoCount: ++gets === 1 ? 1 : 2 }) }),
      [`POST /api/manage/${TOKEN}/photos`]: {
        status: 201,
        json: {
          photos: [
            {
              id: 'p-2',
              jobId: 'a1b2c3d4-0000-4000-8000-000000000001',
              type: 'tyre-condition',
              filename: 'p-2.png',
              originalName: 'tyre.png',
              mimeType: 'image/png',
              size: 4,
              uploadedAt: '2026-11-21T02:00:00.000Z',
            },
          ],
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add photos' }));
    expect(screen.getByText(/at most 4 photos/)).toBeInTheDocument(); // 5 for a known size, 1 already there
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'tyre.png', { type: 'image/png' });
    await act(async () => {
      await user.upload(screen.getByTestId('photo-gallery-input'), file);
    });
    await user.click(screen.getByRole('button', { name: 'Upload 1 photo' }));
    expect(await screen.findByText('Photos added')).toBeInTheDocument();
    const upload = calls.find((c) => c.path.endsWith('/photos'));
    expect(upload?.body).toBeInstanceOf(FormData);
    expect((upload?.body as FormData).getAll('photos')).toHaveLength(1);
    const details = screen.getByRole('region', { name: 'Booking details' });
    await waitFor(() => expect(within(details).getByText('2')).toBeInTheDocument());
  });
});
