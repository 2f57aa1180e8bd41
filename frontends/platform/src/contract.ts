/**
 * The contract between the shell (host) and its remotes. Each remote exposes `./App`, whose default
 * export is a component taking RemoteAppProps and rendering its own <Routes> inside the shell's router.
 */
import type { ComponentType } from 'react';

export interface BusinessInfo {
  /** Trading name shown in headers and titles. */
  name: string;
  /** Phone number for tel: links (E.164 or local digits); null until configured. */
  phone: string | null;
  /** Phone number as displayed; falls back to `phone`. */
  phoneDisplay: string | null;
  /** Australian Business Number as displayed ("12 345 678 901"); null (or absent) until configured. */
  abn?: string | null;
  /** Contact email; null (or absent) until configured. */
  email?: string | null;
}

export interface RemoteAppProps {
  business: BusinessInfo;
  /**
   * Where "home" is for this app. For the dashboard: '/' on the business host, '/dashboard' elsewhere
   * (so that on the public host a redirect "home" stays in the admin app).
   */
  homePath: string;
  /**
   * Public origin of the marketing site for canonical links, Open Graph URLs and the sitemap
   * ("https://www.example.com.au", no trailing slash). Absent: the page's own origin.
   */
  siteUrl?: string | null;
  /** Stripe publishable key; absent or null: the checkout runs its labelled test mode. */
  stripePublishableKey?: string | null;
  /**
   * Build-time prerendering only: the URL being rendered (there is no window). Never set in the browser.
   */
  serverLocation?: string;
}

export type RemoteAppModule = { default: ComponentType<RemoteAppProps> };
