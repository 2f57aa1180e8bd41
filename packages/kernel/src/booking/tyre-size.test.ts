/** Tyre sizes (normalizeTyreSize moved from services/booking/src/domain/pricing.test.ts). */
import { normalizeTyreSize, tyreSizeFromParts } from './tyre-size';

describe('normalizeTyreSize', () => {
  it.each([
    ['205/55R16', '205/55R16'],
    ['205/55r16', '205/55R16'],
    [' 205/55 R16 ', '205/55R16'],
    ['205 55 16', '205/55R16'],
    ['205/55/16', '205/55R16'],
    ['205-55-16', '205/55R16'],
    ['245/40ZR19', '245/40R19'],
    ['205 / 55 R 16', '205/55R16'],
    ['205-55 r16', '205/55R16'],
  ])('%s -> %s', (raw, expected) => expect(normalizeTyreSize(raw)).toBe(expected));

  it.each([
    '',
    '205',
    '2055R16',
    '205/55R',
    'abc/de/fg',
    '31x10.50R15',
    '1205/55R16',
    '205/55R161',
    '205/55R16x',
  ])('rejects %j', (raw) => expect(normalizeTyreSize(raw)).toBeUndefined());
  it('rejects non-strings', () => expect(normalizeTyreSize(205)).toBeUndefined());
});

describe('tyreSizeFromParts', () => {
  it('joins complete width, profile and rim fields', () => {
    expect(tyreSizeFromParts('205', '55', '16')).toBe('205/55R16');
    expect(tyreSizeFromParts(' 205', '55 ', '16')).toBe('205/55R16');
  });
  it.each([
    ['2', '5', '1'],
    ['', '55', '16'],
    ['205', '', '16'],
    ['205', '55', ''],
    ['2055', '55', '16'],
  ])('%s/%sR%s is no size', (w, p, r) => expect(tyreSizeFromParts(w, p, r)).toBeUndefined());
});
