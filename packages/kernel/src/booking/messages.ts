/**
 * The booking forms' messages. Those quoted in the product spec (section 5, customer and staff booking forms;
 * section 8, error catalogue) are verbatim; the booking service answers with the same text, so a front end can
 * show a server `message` as is.
 */
export const BOOKING_MESSAGES = {
  // Date and time slot
  selectDate: 'Please select a date',
  selectSlot: 'Please select a time slot',
  selectDateAndSlot: 'Please select both a date and time slot',
  invalidDateOrSlot: 'Invalid date or time slot selected',
  invalidSlot: 'Invalid time slot',
  // Service and tyres
  selectService: 'Please select a service',
  quantity: 'Quantity must be between 1 and 4',
  tyreSize: 'Please enter the tyre size as width/profile R rim, e.g. 205/55R16',
  tyreBrandTooLong: 'Tyre brand is too long',
  // Customer form (section 5)
  address: 'Please enter your address',
  suburb: 'Suburb is required',
  postcode: 'Please enter a valid postcode',
  make: 'Vehicle make is required',
  model: 'Vehicle model is required',
  year: 'Please enter the vehicle year',
  colorTooLong: 'Vehicle color is too long',
  registration: 'Registration is required',
  registrationTooLong: 'Registration is too long',
  name: 'Name is required',
  phone: 'Valid phone number required',
  email: 'Valid email required',
  notesTooLong: 'Notes are too long (2000 characters at most)',
  paymentMethod: 'Payment method must be onsite or prepaid',
  prepaidFlag: 'prepaid must be true or false',
  // Staff form (section 5)
  staffName: 'Customer name is required',
  staffEmail: 'Valid email address required',
  staffAddress: 'Full address is required',
  staffSuburb: 'Suburb is required',
  color: 'Vehicle color is required',
  selectPaymentMethod: 'Please select a payment method',
  // Availability (error catalogue)
  slotJustBooked: 'This time slot was just booked by someone else. Please select a different time slot.',
  slotNoLongerAvailable: 'This time slot is no longer available. Please select a different time slot.',
  callForQuote: 'Please call for a quote on this tyre size',
  customQuoteNeeded: 'Custom quote needed',
} as const;

/** "Vehicle year must be between 1900 and 2027": the upper bound is next year on the Perth calendar. */
export const vehicleYearMessage = (maxYear: number): string =>
  `Vehicle year must be between 1900 and ${maxYear}`;
