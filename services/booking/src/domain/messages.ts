/** User-facing messages. Those quoted in the product spec (sections 5 and 8) are verbatim. */
export const MSG = {
  // Booking dialog / error catalogue
  selectDate: 'Please select a date',
  selectSlot: 'Please select a time slot',
  selectDateAndSlot: 'Please select both a date and time slot',
  invalidDateOrSlot: 'Invalid date or time slot selected',
  invalidSlot: 'Invalid time slot',
  selectService: 'Please select a service',
  slotJustBooked: 'This time slot was just booked by someone else. Please select a different time slot.',
  slotNoLongerAvailable: 'This time slot is no longer available. Please select a different time slot.',
  callForQuote: 'Please call for a quote on this tyre size',
  customQuoteNeeded: 'Custom quote needed',
  // Customer form (section 5)
  address: 'Please enter your address',
  suburb: 'Suburb is required',
  postcode: 'Please enter a valid postcode',
  make: 'Vehicle make is required',
  model: 'Vehicle model is required',
  registration: 'Registration is required',
  name: 'Name is required',
  phone: 'Valid phone number required',
  email: 'Valid email required',
  quantity: 'Quantity must be between 1 and 4',
  tyreSize: 'Please enter the tyre size as width/profile R rim, e.g. 205/55R16',
  // Staff form (section 5)
  staffName: 'Customer name is required',
  staffEmail: 'Valid email address required',
  staffAddress: 'Full address is required',
  staffSuburb: 'Suburb is required',
  color: 'Vehicle color is required',
  // Time slot management
  blockReason: 'Please enter a reason for blocking this time slot',
  blockBooked:
    'This time slot already has a booking. Reschedule or cancel that job before blocking the slot.',
  // Booking token / photos
  bookingNotFound: 'Booking Not Found',
  prepaidNotAvailable:
    'Online payment is not available for this booking (battery service or a tyre size that needs a custom quote). Please choose to pay on site.',
  photoType: 'Please upload jpeg, png, webp files only.',
  photoTypeTitle: 'Invalid file type',
  photoSize: 'File size must be less than 5MB.',
  photoSizeTitle: 'File too large',
  photoCount: (n: number) => `Maximum ${n} files allowed.`,
  photoCountTitle: 'Too many files',
  photoNone: 'Please choose at least one photo to upload.',
  photoWindow: 'Photos can only be added within an hour of making the booking.',
  photoKind: 'Unknown photo type',
  photoNotFound: 'Photo not found',
  // Suburbs
  serviceAreaNotFound: 'Service Area Not Found',
} as const;

export const vehicleYearMessage = (max: number) => `Vehicle year must be between 1900 and ${max}`;
