import { toMoney } from '@tyres/events';
import { suburbPageCopy, slugName } from '../suburbs';
import { GAZETTEER } from './gazetteer';
import { LANDING_SUBURBS } from './landing-suburbs';
import { purchaseCents, TYRE_CATALOGUE } from './tyres';

const q = (v: string) => `'${v.replace(/'/g, "''")}'`;
/** Deterministic ids: the same rows get the same ids in every environment. */
const id = (key: string) => `md5(${q(key)})::uuid`;

/** The SQL of the reference_data migration (idempotent INSERTs; runs with search_path = booking). */
export function renderSeedSql(): string {
  const tyres = TYRE_CATALOGUE.map(
    (t) =>
      `  (${id(`tyre|${t.size}|${t.brand}|${t.model}`)}, ${q(t.size)}, ${q(t.brand)}, ${q(t.model)}, ${toMoney(purchaseCents(t.retail))}, ${toMoney(BigInt(t.retail) * 100n)}, true)`,
  );
  const order = new Map<string, number>();
  const pages = LANDING_SUBURBS.map((s) => {
    const n = (order.get(s.region) ?? 0) + 1;
    order.set(s.region, n);
    const copy = suburbPageCopy(s.suburb, s.postcode, s.region);
    return `  (${id(`landing|${s.suburb}`)}, ${q(s.suburb)}, ${q(s.postcode)}, ${q(s.region)}, ${q(copy.slug)}, ${q(copy.metaTitle)}, ${q(copy.metaDescription)}, ${q(copy.content)}, true, ${n})`;
  });
  const suburbs = GAZETTEER.map(
    (g) =>
      `  (${id(`suburb|${g.name}|${g.postcode}`)}, ${q(g.name)}, ${q(g.postcode)}, ${q(g.region)}, ${q(slugName(g.name))})`,
  );
  return [
    '-- Reference data: tyre pricing, the 42 landing-page suburbs and the Perth & Peel gazetteer.',
    '-- Rendered by services/booking/scripts/render-seed-sql.ts from src/domain/reference/*.ts; idempotent.',
    '',
    `-- ${TYRE_CATALOGUE.length} tyres (${new Set(TYRE_CATALOGUE.map((t) => t.size)).size} sizes)`,
    'INSERT INTO "tyre_stock_pricing" ("id", "size", "brand", "model", "purchase_price", "retail_price", "is_active") VALUES',
    `${tyres.join(',\n')}`,
    'ON CONFLICT ("size", "brand", "model") DO NOTHING;',
    '',
    `-- ${LANDING_SUBURBS.length} landing-page suburbs`,
    'INSERT INTO "suburb_landing_pages" ("id", "suburb", "postcode", "region", "slug", "meta_title", "meta_description", "content", "is_active", "sort_order") VALUES',
    `${pages.join(',\n')}`,
    'ON CONFLICT ("suburb") DO NOTHING;',
    '',
    `-- ${GAZETTEER.length} served suburbs`,
    'INSERT INTO "suburbs" ("id", "name", "postcode", "region", "slug_name") VALUES',
    `${suburbs.join(',\n')}`,
    'ON CONFLICT ("name", "postcode") DO NOTHING;',
    '',
  ].join('\n');
}
