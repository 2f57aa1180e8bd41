import type { BusinessInfo } from '@tyres/platform';

/**
 * What a prerendered page was rendered with (written by scripts/prerender.mjs into
 * <script type="application/json" id="tyres-prerender">). The shell hydrates only when the page is the one
 * the browser is on and the runtime business details are those the HTML was rendered with; otherwise it
 * renders from scratch, so a config.json that differs from the pages still shows its own phone number and
 * ABN. In the image both come from the same environment at start (docker-entrypoint.d/40-render-site.sh), so
 * pages hydrate.
 */
export interface PrerenderInfo {
  path: string;
  business: BusinessInfo;
}

export const PRERENDER_INFO_ID = 'tyres-prerender';

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function readPrerenderInfo(doc: Document): PrerenderInfo | null {
  const el = doc.getElementById(PRERENDER_INFO_ID);
  if (!el?.textContent) return null;
  try {
    const info = JSON.parse(el.textContent) as PrerenderInfo;
    return typeof info.path === 'string' && info.business ? info : null;
  } catch {
    return null;
  }
}

const FIELDS = ['name', 'phone', 'phoneDisplay', 'abn', 'email'] as const;

export function sameBusiness(a: BusinessInfo, b: BusinessInfo): boolean {
  return FIELDS.every((key) => (a[key] ?? null) === (b[key] ?? null));
}
