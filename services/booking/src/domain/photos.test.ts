import { maxPhotos, sanitizeOriginalName, sniffImageType } from './photos';
import { formatJobNumber, hashToken, looksLikeToken, newBookingToken } from './tokens';

const bytes = (...b: number[]) => Uint8Array.from([...b, ...new Array(16).fill(0)]);

describe('sniffImageType (magic bytes, not names)', () => {
  it('recognises jpeg, png and webp', () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
  });
  it('refuses everything else', () => {
    expect(sniffImageType(Buffer.from('GIF89a.........'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.7.........'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined();
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8]))).toBeUndefined();
  });
});

describe('photo limits and names', () => {
  it('5 photos with a known tyre size, 3 without', () => {
    expect(maxPhotos('205/55R16')).toBe(5);
    expect(maxPhotos(null)).toBe(3);
  });
  it('keeps only a safe display name', () => {
    expect(sanitizeOriginalName('C:\\Users\\me\\tyre.jpg')).toBe('tyre.jpg');
    expect(sanitizeOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalName('a\u0000b\nc.png')).toBe('abc.png');
    expect(sanitizeOriginalName(undefined)).toBe('photo');
    expect(sanitizeOriginalName('x'.repeat(400))).toHaveLength(255);
  });
});

describe('tokens and job numbers', () => {
  it('booking tokens are 256-bit base64url and stored as sha256', () => {
    const token = newBookingToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(looksLikeToken(token)).toBe(true);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toBe(hashToken(newBookingToken()));
    expect(looksLikeToken('short')).toBe(false);
    expect(looksLikeToken('has spaces in it, no good')).toBe(false);
  });
  it('job numbers are JOB- and six digits or more', () => {
    expect(formatJobNumber(123)).toBe('JOB-000123');
    expect(formatJobNumber(1234567)).toBe('JOB-1234567');
  });
});
