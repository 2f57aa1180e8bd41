/**
 * Runtime configuration of the shell: where the remotes live and which host is the business host.
 *
 * Precedence (later wins): built-in defaults (config.defaults.json) < /config.json next to index.html
 * (the build emits the defaults there; the image's start step rewrites its siteUrl and business from the
 * environment, SITE_URL and BUSINESS_*, and a deployment may mount its own file for the rest, e.g. the
 * business host) < window.__APP_CONFIG__ (set by an inline script a server may inject into index.html).
 */
import type { BusinessInfo } from '@tyres/platform';
import defaults from './config.defaults.json';

declare const __webpack_public_path__: string;

export type AppName = 'public' | 'dashboard';

export interface AppConfig {
  /** Absolute URL of each remote's mf-manifest.json (or remoteEntry.js). */
  remotes: Record<AppName, string>;
  /** Lower-case host names that open the staff dashboard; empty when there is none. */
  businessHosts: string[];
  business: BusinessInfo;
  /** Public origin of the marketing site (canonical links, sitemap), no trailing slash; null: the page's own. */
  siteUrl: string | null;
  /** Stripe publishable key for the checkout; null: the checkout's labelled test mode. */
  stripePublishableKey: string | null;
}

/** What /config.json or window.__APP_CONFIG__ may contain; every field optional. */
export interface AppConfigInput {
  remotes?: Partial<Record<AppName, string>>;
  /** One host name, a list, or a comma-separated list. */
  businessHost?: string | string[] | null;
  business?: Partial<BusinessInfo>;
  /** "https://www.example.com.au": canonical origin of the public site. */
  siteUrl?: string | null;
  stripePublishableKey?: string | null;
}

declare global {
  interface Window {
    __APP_CONFIG__?: AppConfigInput;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function parseHosts(value: unknown): string[] | undefined {
  if (value === null) return [];
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!list) return undefined;
  return list
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** Base against which relative remote URLs are resolved: where the shell itself is served from. */
function shellBaseUrl(): string {
  return new URL(__webpack_public_path__ || '/', window.location.href).href;
}

export function applyInput(
  config: AppConfig,
  input: unknown,
  source: string,
  baseUrl: () => string = shellBaseUrl,
): AppConfig {
  if (input === undefined) return config;
  if (!isRecord(input)) {
    console.warn(`[shell] ignoring ${source}: not an object`);
    return config;
  }
  const next: AppConfig = {
    remotes: { ...config.remotes },
    businessHosts: config.businessHosts,
    business: { ...config.business },
    siteUrl: config.siteUrl,
    stripePublishableKey: config.stripePublishableKey,
  };
  if (isRecord(input.remotes)) {
    for (const app of ['public', 'dashboard'] as const) {
      const url = nonEmptyString(input.remotes[app]);
      if (url) next.remotes[app] = new URL(url, baseUrl()).href;
    }
  }
  if ('businessHost' in input) {
    const hosts = parseHosts(input.businessHost);
    if (hosts) next.businessHosts = hosts;
    else console.warn(`[shell] ignoring ${source} businessHost: expected a string or a list of strings`);
  }
  if (isRecord(input.business)) {
    const name = nonEmptyString(input.business.name);
    if (name) next.business.name = name;
    for (const key of ['phone', 'phoneDisplay', 'abn', 'email'] as const) {
      if (key in input.business) next.business[key] = nonEmptyString(input.business[key]) ?? null;
    }
  }
  if ('siteUrl' in input) {
    const url = nonEmptyString(input.siteUrl);
    next.siteUrl = url && /^https?:\/\//i.test(url) ? url.replace(/\/+$/, '') : null;
    if (url && !next.siteUrl)
      console.warn(`[shell] ignoring ${source} siteUrl: expected an absolute http(s) URL`);
  }
  if ('stripePublishableKey' in input) {
    const key = nonEmptyString(input.stripePublishableKey);
    next.stripePublishableKey = key && key.startsWith('pk_') ? key : null;
    if (key && !next.stripePublishableKey)
      console.warn(`[shell] ignoring ${source} stripePublishableKey: not a pk_ key`);
  }
  return next;
}

/** The built-in defaults; `baseUrl` resolves relative remote URLs (the shell's own URL in the browser). */
export function defaultConfig(baseUrl: () => string = shellBaseUrl): AppConfig {
  return applyInput(
    {
      remotes: { public: '', dashboard: '' },
      businessHosts: [],
      business: { name: '', phone: null, phoneDisplay: null, abn: null, email: null },
      siteUrl: null,
      stripePublishableKey: null,
    },
    defaults,
    'built-in defaults',
    baseUrl,
  );
}

async function fetchConfigFile(): Promise<unknown> {
  const url = new URL('config.json', shellBaseUrl()).href;
  try {
    // Same request as the <link rel="preload"> in index.html, so the preloaded response is reused.
    const res = await fetch(url, { credentials: 'same-origin' });
    if (res.status === 404) return undefined;
    if (!res.ok) {
      console.warn(`[shell] ${url} answered ${res.status}; using defaults`);
      return undefined;
    }
    return (await res.json()) as unknown;
  } catch (error) {
    console.warn(`[shell] could not read ${url}; using defaults`, error);
    return undefined;
  }
}

export async function loadRuntimeConfig(): Promise<AppConfig> {
  const fromFile = await fetchConfigFile();
  return applyInput(
    applyInput(defaultConfig(), fromFile, 'config.json'),
    window.__APP_CONFIG__,
    'window.__APP_CONFIG__',
  );
}
