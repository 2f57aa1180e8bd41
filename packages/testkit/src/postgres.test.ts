import { databaseUrl } from './postgres';

describe('databaseUrl', () => {
  it('swaps the database and keeps credentials and options', () => {
    expect(databaseUrl('postgresql://u:p@h:5433/postgres?sslmode=disable', 'tk_a_1')).toBe(
      'postgresql://u:p@h:5433/tk_a_1?sslmode=disable',
    );
    expect(databaseUrl('postgresql://postgres@127.0.0.1:5432', 'x')).toBe(
      'postgresql://postgres@127.0.0.1:5432/x',
    );
  });
});
