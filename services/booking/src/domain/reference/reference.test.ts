import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRICES } from '../constants';
import { GAZETTEER, REGIONS } from './gazetteer';
import { LANDING_SUBURBS } from './landing-suburbs';
import { renderSeedSql } from './seed-sql';
import { TYRE_CATALOGUE } from './tyres';
import { normalizeTyreSize } from '@tyres/kernel';

describe('tyre catalogue', () => {
  it('has at least 30 sizes, several brands, normalised sizes and no duplicates', () => {
    const sizes = new Set(TYRE_CATALOGUE.map((t) => t.size));
    expect(sizes.size).toBeGreaterThanOrEqual(30);
    expect(new Set(TYRE_CATALOGUE.map((t) => t.brand)).size).toBeGreaterThanOrEqual(8);
    for (const size of sizes) expect(normalizeTyreSize(size)).toBe(size);
    const keys = TYRE_CATALOGUE.map((t) => `${t.size}|${t.brand}|${t.model}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const size of sizes)
      expect(TYRE_CATALOGUE.filter((t) => t.size === size).length).toBeGreaterThanOrEqual(2);
  });
  it('its cheapest tyre is the $139 shown on the site', () => {
    expect(BigInt(Math.min(...TYRE_CATALOGUE.map((t) => t.retail))) * 100n).toBe(PRICES.newTyresBasePrice);
  });
});

describe('suburbs', () => {
  it('the gazetteer lists 350+ Perth and Peel suburbs with WA postcodes, each once', () => {
    expect(GAZETTEER.length).toBeGreaterThanOrEqual(350);
    for (const s of GAZETTEER) {
      expect(s.postcode).toMatch(/^6\d{3}$/);
      expect(REGIONS).toContain(s.region);
    }
    expect(new Set(GAZETTEER.map((s) => s.name)).size).toBe(GAZETTEER.length);
  });
  it('42 landing suburbs in the three regions, each in the gazetteer with the same postcode and region', () => {
    expect(LANDING_SUBURBS).toHaveLength(42);
    expect(new Set(LANDING_SUBURBS.map((s) => s.suburb)).size).toBe(42);
    for (const region of REGIONS) expect(LANDING_SUBURBS.some((s) => s.region === region)).toBe(true);
    for (const l of LANDING_SUBURBS) {
      expect(GAZETTEER.find((g) => g.name === l.suburb)).toMatchObject({
        postcode: l.postcode,
        region: l.region,
      });
    }
    // Links replace the first space with a hyphen: no landing suburb has two spaces.
    for (const l of LANDING_SUBURBS) expect(l.suburb.split(' ').length).toBeLessThanOrEqual(2);
  });
});

describe('reference_data migration', () => {
  it('is exactly what scripts/render-seed-sql.ts renders from these files', () => {
    const dir = path.resolve(__dirname, '../../../prisma/migrations');
    const folder = readdirSync(dir).find((d) => d.endsWith('_reference_data'));
    expect(folder).toBeDefined();
    expect(readFileSync(path.join(dir, folder!, 'migration.sql'), 'utf8')).toBe(renderSeedSql());
  });
});
