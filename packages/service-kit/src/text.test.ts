import { hasLoneSurrogate, hasNulCharacter } from './text';

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

describe('hasLoneSurrogate (issue 14: "A\\ud800" in any text field must be a 400, not a 500)', () => {
  it('finds a high or low surrogate without its partner anywhere in a value or key', () => {
    expect(hasLoneSurrogate('A\ud800')).toBe(true);
    expect(hasLoneSurrogate('\udc00B')).toBe(true);
    expect(hasLoneSurrogate('x\ud800y')).toBe(true);
    expect(hasLoneSurrogate('\udbff\udbff\udfff')).toBe(true);
    expect(hasLoneSurrogate({ customer: { name: 'A\ud800' } })).toBe(true);
    expect(hasLoneSurrogate({ job: { notes: ['ok', '\udfff'] } })).toBe(true);
    expect(hasLoneSurrogate({ ['k\ud800']: 1 })).toBe(true);
    expect(hasLoneSurrogate(JSON.parse('{"name":"A\\ud800"}'))).toBe(true);
  });
  it('passes proper pairs (emoji), other unicode and non-strings', () => {
    expect(hasLoneSurrogate('Tyre 🛞 Zoë Ngā')).toBe(false);
    expect(hasLoneSurrogate('\ud83d\ude97')).toBe(false);
    expect(hasLoneSurrogate({ year: 2018, ok: true, none: null, list: ['🚗'] })).toBe(false);
    expect(hasLoneSurrogate(undefined)).toBe(false);
  });
});
