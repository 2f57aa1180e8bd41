import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cssVarName, PALETTE, type PaletteColor } from '@tyres/platform/theme';

const SHEETS = ['public.css', 'booking/booking.css', 'checkout/checkout.css'];
const read = (sheet: string) => readFileSync(join(__dirname, '..', sheet), 'utf8');
const defined = new Set((Object.keys(PALETTE) as PaletteColor[]).map(cssVarName));

describe("the public site's colours", () => {
  test.each(SHEETS)('%s writes no colour literally: hex colours come from the palette', (sheet) => {
    expect(read(sheet).match(/#[0-9a-f]{3,8}\b/gi) ?? []).toEqual([]);
  });

  test.each(SHEETS)('%s uses only colours the palette defines', (sheet) => {
    const used = read(sheet).match(/--tyres-color-[a-z0-9-]+/g) ?? [];
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => !defined.has(name))).toEqual([]);
  });
});
