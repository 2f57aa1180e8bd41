import { REGIONS } from '../domain/reference/gazetteer';
import type { Locality } from '../domain/addresses';
import { RESPONSE_TIME } from '../domain/constants';
import { slugName, suburbPageCopy, type SuburbPage } from '../domain/suburbs';
import type { Db } from './client';

export interface ServedSuburb extends Locality {
  slugName: string;
}

/**
 * Suburb landing pages and the gazetteer. Both are reference data that only change with a migration, so the
 * gazetteer is read once per process and kept in memory (about 400 rows).
 */
export class Suburbs {
  private gazetteer?: Promise<ServedSuburb[]>;

  constructor(private readonly db: Db) {}

  served(): Promise<ServedSuburb[]> {
    this.gazetteer ??= this.db.suburb
      .findMany({ orderBy: [{ name: 'asc' }, { postcode: 'asc' }] })
      .then((rows) =>
        rows.map((r) => ({ name: r.name, postcode: r.postcode, region: r.region, slugName: r.slugName })),
      );
    this.gazetteer.catch(() => (this.gazetteer = undefined));
    return this.gazetteer;
  }

  /** The landing-page suburbs grouped by region, in display order (the home page's Areas section). */
  async landingList() {
    const pages = await this.db.suburbLandingPage.findMany({
      where: { isActive: true },
      orderBy: [{ sortOrder: 'asc' }, { suburb: 'asc' }],
      select: { suburb: true, postcode: true, region: true, slug: true },
    });
    return REGIONS.map((region) => ({ region, suburbs: pages.filter((p) => p.region === region) })).filter(
      (r) => r.suburbs.length > 0,
    );
  }

  /**
   * Page data for /mobile-tyres-{suburb}: the seeded landing page, or, for any other suburb we serve, the same copy
   * generated from the gazetteer. Undefined when we do not serve it ("Service Area Not Found").
   */
  async page(name: string): Promise<SuburbPage | undefined> {
    const slug = `mobile-tyres-${name}`;
    const landing = await this.db.suburbLandingPage.findFirst({ where: { slug, isActive: true } });
    if (landing) {
      return {
        suburb: landing.suburb,
        postcode: landing.postcode,
        region: landing.region,
        slug: landing.slug,
        metaTitle: landing.metaTitle,
        metaDescription: landing.metaDescription,
        content: landing.content,
        responseTime: RESPONSE_TIME,
      };
    }
    const served = (await this.served()).find((s) => s.slugName === name);
    if (!served) return undefined;
    return { ...suburbPageCopy(served.name, served.postcode, served.region), responseTime: RESPONSE_TIME };
  }

  /** Served suburbs matching a name or postcode prefix ("Check Service Availability"). */
  async search(query: string, limit = 10): Promise<Locality[]> {
    const q = query.trim();
    const all = await this.served();
    if (/^\d{1,4}$/.test(q))
      return all
        .filter((s) => s.postcode.startsWith(q))
        .slice(0, limit)
        .map(strip);
    const name = slugName(q);
    if (!name) return [];
    const starts = all.filter((s) => s.slugName.startsWith(name));
    const contains = all.filter((s) => !s.slugName.startsWith(name) && s.slugName.includes(name));
    return [...starts, ...contains].slice(0, limit).map(strip);
  }
}

const strip = (s: ServedSuburb): Locality => ({ name: s.name, postcode: s.postcode, region: s.region });
