import {
  InvalidPhoneNumberError,
  maskPhone,
  normalizeAuMobile,
  normalizeAuPhone,
  parseAuPhoneNumber,
} from './phone';

describe('normalizeAuMobile', () => {
  it.each([
    ['0412 345 678', '+61412345678'],
    ['0412345678', '+61412345678'],
    ['0412-345-678', '+61412345678'],
    ['(04) 1234 5678', '+61412345678'],
    ['+61 412 345 678', '+61412345678'],
    ['+61412345678', '+61412345678'],
    ['+61 (0)412 345 678', '+61412345678'],
    ['+61 0412 345 678', '+61412345678'],
    ['61412345678', '+61412345678'],
    ['0061 412 345 678', '+61412345678'],
    ['0011 61 412 345 678', '+61412345678'],
    ['412 345 678', '+61412345678'],
    ['  0498.765.432 ', '+61498765432'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeAuMobile(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['abc', 'characters'],
    ['0412 345 67', 'digits'],
    ['0412 345 6789', 'Australian'],
    ['+44 7911 123456', 'not an Australian number'],
    ['001 212 555 0100', 'not an Australian number'],
    ['1300 123 456', 'not a valid Australian number'],
    ['13 13 13', 'not a valid Australian number'],
    ['0112345678', 'mobile or landline'],
    ['04123+45678', 'misplaced +'],
    ['0412 345 678 ext 2', 'characters'],
  ])('rejects %j (%s)', (input, message) => {
    expect(() => normalizeAuMobile(input)).toThrow(InvalidPhoneNumberError);
    expect(() => normalizeAuMobile(input)).toThrow(message);
  });

  it('rejects landlines for SMS with a clear message', () => {
    expect(() => normalizeAuMobile('(08) 9123 4567')).toThrow('landline; SMS needs a mobile number');
  });

  it('never repeats the number in the error (it is logged)', () => {
    try {
      normalizeAuMobile('0812 345 678');
    } catch (err) {
      expect((err as Error).message).not.toContain('345');
    }
  });
});

describe('normalizeAuPhone', () => {
  it('accepts landlines', () => {
    expect(normalizeAuPhone('(08) 9123 4567')).toBe('+61891234567');
    expect(normalizeAuPhone('02 9876 5432')).toBe('+61298765432');
    expect(parseAuPhoneNumber('+61 3 9123 4567')).toEqual({ e164: '+61391234567', kind: 'landline' });
  });
});

describe('maskPhone', () => {
  it('keeps the country code and the last three digits', () => {
    expect(maskPhone('+61412345678')).toBe('+614*****678');
  });
});
