/**
 * Australian phone numbers to E.164 (+61 followed by the 9-digit national significant number).
 *
 * Accepted forms: 0412 345 678, 0412-345-678, (08) 9123 4567, +61 412 345 678, +61 (0)412 345 678,
 * +61 0412 345 678, 61412345678, 0061 412 345 678, 0011 61 412 345 678, and 412 345 678 (a mobile typed without its
 * leading 0). Everything else is rejected with a message that names the problem but never repeats the number
 * (it ends up in logs).
 */

export class InvalidPhoneNumberError extends Error {
  override readonly name = 'InvalidPhoneNumberError';
}

export type AuNumberKind = 'mobile' | 'landline';

export interface AuPhoneNumber {
  e164: string;
  kind: AuNumberKind;
}

const SEPARATORS = /[\s\-.()/]/g;

/** Parses any Australian mobile or geographic (landline) number. */
export function parseAuPhoneNumber(input: string): AuPhoneNumber {
  const raw = input.trim();
  if (raw === '') throw new InvalidPhoneNumberError('Phone number is empty');
  if (!/^[+\d\s\-.()/]+$/.test(raw))
    throw new InvalidPhoneNumberError(
      'Phone number contains characters other than digits, spaces, +, -, ( and )',
    );
  // "+61 (0)4..." and "+61 04...": the trunk 0 written after the country code.
  const compact = raw.replace(/\(0\)/g, '').replace(SEPARATORS, '');
  if (compact.indexOf('+') > 0 || (compact.match(/\+/g)?.length ?? 0) > 1)
    throw new InvalidPhoneNumberError('Phone number has a misplaced +');

  let national: string;
  if (compact.startsWith('+')) {
    if (!compact.startsWith('+61'))
      throw new InvalidPhoneNumberError('Phone number is not an Australian number (+61)');
    national = compact.slice(3);
  } else if (compact.startsWith('001161')) {
    national = compact.slice(6);
  } else if (compact.startsWith('0061')) {
    national = compact.slice(4);
  } else if (compact.startsWith('00')) {
    throw new InvalidPhoneNumberError('Phone number is not an Australian number (+61)');
  } else if (compact.startsWith('61') && compact.length === 11) {
    national = compact.slice(2);
  } else if (compact.startsWith('0')) {
    national = compact;
  } else if (compact.length === 9 && compact.startsWith('4')) {
    national = compact;
  } else {
    throw new InvalidPhoneNumberError('Phone number is not a valid Australian number');
  }
  // Trunk prefix: 04xx xxx xxx -> 4xx xxx xxx (also after +61, a common mistake).
  if (national.length === 10 && national.startsWith('0')) national = national.slice(1);

  if (!/^\d{9}$/.test(national) || national.startsWith('0'))
    throw new InvalidPhoneNumberError(
      'Phone number is not a valid Australian number (wrong number of digits)',
    );
  const first = national[0];
  if (first === '4') return { e164: `+61${national}`, kind: 'mobile' };
  if (first === '2' || first === '3' || first === '7' || first === '8')
    return { e164: `+61${national}`, kind: 'landline' };
  throw new InvalidPhoneNumberError('Phone number is not a valid Australian mobile or landline number');
}

/** E.164 of an Australian number (mobile or landline). */
export function normalizeAuPhone(input: string): string {
  return parseAuPhoneNumber(input).e164;
}

/** E.164 of an Australian mobile: SMS cannot go to a landline, a 13/1300/1800 number or a foreign number. */
export function normalizeAuMobile(input: string): string {
  const parsed = parseAuPhoneNumber(input);
  if (parsed.kind !== 'mobile')
    throw new InvalidPhoneNumberError(
      'Phone number is an Australian landline; SMS needs a mobile number (04xx xxx xxx)',
    );
  return parsed.e164;
}

/** For logs: +61 4** *** 678. */
export function maskPhone(e164: string): string {
  if (e164.length < 6) return '***';
  return `${e164.slice(0, 4)}${e164.slice(4, -3).replace(/\d/g, '*')}${e164.slice(-3)}`;
}
