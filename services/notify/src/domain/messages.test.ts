import { bookingCreated } from '../../test/fixtures';
import {
  bookingConfirmationEmail,
  bookingConfirmationSms,
  cancellationDeadlines,
  manageUrlIn,
  technicianEnRouteSms,
} from './messages';

const business = { name: 'Mobile Tyres Perth', phone: '08 6000 0000' };

describe('bookingConfirmationEmail', () => {
  const booking = bookingCreated({
    jobNumber: 'JOB-123456',
    scheduledDate: '2026-11-24',
    timeSlot: '8-10 AM',
  });
  const email = bookingConfirmationEmail(booking, business);

  it('names the service, date and slot in the subject', () => {
    expect(email.subject).toBe(
      'Booking confirmed: New Tyres on Tuesday 24 November 2026, 8-10 AM (JOB-123456)',
    );
  });

  it('lists service, date, slot, address, amount', () => {
    expect(email.text).toContain('Hi Jane,');
    expect(email.text).toContain('Job number: JOB-123456');
    expect(email.text).toContain('Service: New Tyres (4 x 205/55R16 Michelin)');
    expect(email.text).toContain('Date: Tuesday 24 November 2026');
    expect(email.text).toContain('Time slot: 8-10 AM');
    expect(email.text).toContain('Address: 12 Beaufort Street, Mount Lawley 6050');
    expect(email.text).toContain('Vehicle: 2019 Toyota Corolla (1ABC234)');
    // Prices include GST: its GST is the total ÷ 11 ($705.80 / 11 = 64.1636… → $64.16), as on the quote.
    expect(email.text).toContain('Amount: $705.80 (inc. GST $64.16), payable on site');
  });

  it("states the cancellation terms with this booking's deadlines in Perth time", () => {
    expect(email.text).toContain(
      'Cancel 24 hours or more before your booking (before Mon 23 Nov, 8:00 am): full refund.',
    );
    expect(email.text).toContain('Cancel 12 to 24 hours before (before Mon 23 Nov, 8:00 pm): 50% refund.');
    expect(email.text).toContain(
      'Cancel less than 12 hours before: no refund. No-shows are charged in full.',
    );
    expect(email.text).toContain(
      'To cancel or reschedule, call us on 08 6000 0000 or reply to this email, quoting job number JOB-123456.',
    );
  });

  it('works out the deadlines from the slot start', () => {
    const d = cancellationDeadlines('2026-11-24', '2-4 PM');
    expect(d.slotStart.toISOString()).toBe('2026-11-24T06:00:00.000Z');
    expect(d.fullRefundBefore.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(d.halfRefundBefore.toISOString()).toBe('2026-11-23T18:00:00.000Z');
  });

  it('says prepaid bookings were paid and are non-refundable after completion', () => {
    const paid = bookingConfirmationEmail(
      bookingCreated({ paymentMethod: 'prepaid', paymentStatus: 'paid', customerValue: '675.80' }),
      business,
    );
    // What the card was charged, as on the paid invoice: $675.80 + 1.7% ($11.4886 → $11.49) = $687.29, whose GST
    // is $687.29 / 11 = 62.4809… → $62.48.
    expect(paid.text).toContain(
      'Amount: $675.80 + card surcharge 1.7% $11.49 = $687.29, paid online (inc. GST $62.48)',
    );
    expect(paid.text).toContain('Prepaid bookings are non-refundable once the work is completed.');
  });

  it('states the surcharge at the rate the quote was charged at (BookingCreated cardSurchargeRate)', () => {
    const paid = bookingConfirmationEmail(
      bookingCreated({
        paymentMethod: 'prepaid',
        paymentStatus: 'paid',
        customerValue: '675.80',
        cardSurchargeRate: '1.50',
      }),
      business,
    );
    // $675.80 × 1.5% = 10.137 → $10.14; $685.94, GST 685.94 / 11 = 62.3581… → $62.36.
    expect(paid.text).toContain(
      'Amount: $675.80 + card surcharge 1.5% $10.14 = $685.94, paid online (inc. GST $62.36)',
    );
  });

  it('states a prepaid booking not yet paid, and large amounts, with their GST', () => {
    const pending = bookingConfirmationEmail(
      bookingCreated({ paymentMethod: 'prepaid', paymentStatus: 'pending', customerValue: '1099.76' }),
      business,
    );
    expect(pending.text).toContain('Amount: $1,099.76 (inc. GST $99.98), prepaid online');
    expect(pending.html).toContain('$1,099.76 (inc. GST $99.98), prepaid online');
    const puncture = bookingConfirmationEmail(
      bookingCreated({ serviceType: 'puncture-repair', customerValue: '129.80', tyreSize: null }),
      business,
    );
    expect(puncture.text).toContain('Amount: $129.80 (inc. GST $11.80), payable on site');
  });

  it('shows battery service as quoted on site', () => {
    const battery = bookingConfirmationEmail(
      bookingCreated({
        serviceType: 'battery-service',
        customerValue: '0.00',
        tyreSize: null,
        tyreQuantity: null,
        tyreBrand: null,
      }),
      business,
    );
    expect(battery.text).toContain('Service: Mobile Battery Service');
    expect(battery.text).toContain('Amount: Quote on site');
  });

  it('offers only a reply when no phone is configured', () => {
    const noPhone = bookingConfirmationEmail(booking, { name: 'Mobile Tyres Perth', phone: '' });
    expect(noPhone.text).toContain(
      'To cancel or reschedule, reply to this email, quoting job number JOB-123456.',
    );
  });

  it('escapes customer input in the HTML version', () => {
    const html = bookingConfirmationEmail(
      bookingCreated({
        address: '<script>alert(1)</script> St',
        customer: { name: 'A & B', email: 'a@b.co', phone: '0412345678' },
      }),
      business,
    ).html;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; St');
    expect(html).toContain('Hi A,');
  });
});

describe('technicianEnRouteSms', () => {
  it('gives the ETA 30 minutes from now in Perth time', () => {
    expect(technicianEnRouteSms(new Date('2026-11-21T02:15:00Z'), business)).toBe(
      'Mobile Tyres Perth: your technician is en route, ETA 10:45.',
    );
  });
});

describe('the confirmation with the manage link (issue 18)', () => {
  const url = `https://tyres.example/manage/${'x'.repeat(43)}`;
  const booking = bookingCreated({
    jobNumber: 'JOB-123456',
    scheduledDate: '2026-11-24',
    timeSlot: '8-10 AM',
  });
  const email = bookingConfirmationEmail(booking, business, url);

  it('offers "Manage your booking" as a button and as the plain link', () => {
    expect(email.html).toContain(`<a href="${url}"`);
    expect(email.html).toContain('>Manage your booking</a>');
    expect(email.html).toContain(`>${url}</a>`);
    expect(email.text).toContain(`Manage your booking\n`);
    expect(email.text).toContain(`\n${url}\n`);
    expect(email.text).toContain('Or call us on 08 6000 0000, quoting job number JOB-123456.');
  });

  it('keeps the booking details and the terms', () => {
    expect(email.subject).toBe(
      'Booking confirmed: New Tyres on Tuesday 24 November 2026, 8-10 AM (JOB-123456)',
    );
    expect(email.text).toContain('Cancellation policy');
    expect(email.text).not.toContain('To cancel or reschedule, call us');
  });

  it('without a link: the phone and a reply, as before', () => {
    const plain = bookingConfirmationEmail(booking, business);
    expect(plain.text).not.toContain('/manage/');
    expect(plain.text).toContain('To cancel or reschedule, call us on 08 6000 0000 or reply to this email');
  });

  it('the SMS: who, which booking, when, and the link', () => {
    expect(bookingConfirmationSms(booking, business, url)).toBe(
      `Mobile Tyres Perth: booking JOB-123456 confirmed for Tuesday 24 November 2026, 8-10 AM. ` +
        `View, reschedule or cancel: ${url}`,
    );
  });

  it("finds the link in booking's manage-link message text, and nothing in other text", () => {
    expect(manageUrlIn(`Use this private link:\n\n${url}\n\nKeep it to yourself.`)).toBe(url);
    expect(manageUrlIn(`Booking JOB-1 confirmed for Tue. View, reschedule or cancel: ${url}`)).toBe(url);
    expect(manageUrlIn('Call us on 08 6000 0000')).toBeNull();
    expect(manageUrlIn('https://tyres.example/manage/short')).toBeNull();
  });
});
