import { hasNulCharacter } from './text';

describe('hasNulCharacter (Postgres cannot store U+0000 in text)', () => {
  it('finds a NUL in a string, a nested value or a key', () => {
    expect(hasNulCharacter('a\u0000b')).toBe(true);
    expect(hasNulCharacter({ job: { notes: ['ok', 'gate\u0000'] } })).toBe(true);
    expect(hasNulCharacter({ ['k\u0000']: 1 })).toBe(true);
  });

  it('passes ordinary values, including other unicode and non-strings', () => {
    expect(hasNulCharacter({ name: 'Zoë Ngā', year: 2018, ok: true, none: null })).toBe(false);
    expect(hasNulCharacter(undefined)).toBe(false);
    expect(hasNulCharacter(42)).toBe(false);
  });
});
