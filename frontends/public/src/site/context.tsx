import { createContext, useContext, type ReactNode } from 'react';
import type { BusinessInfo } from '@tyres/platform';

export interface SiteInfo {
  business: BusinessInfo;
  /** Absolute origin of the public site, no trailing slash. */
  siteUrl: string;
  stripePublishableKey: string | null;
}

const SiteContext = createContext<SiteInfo | null>(null);

export function SiteProvider({ value, children }: { value: SiteInfo; children: ReactNode }) {
  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}

export function useSite(): SiteInfo {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite() outside <SiteProvider>');
  return site;
}

/** The number to show: the display form when configured, else the dialling form. */
export function phoneLabel(business: BusinessInfo): string | null {
  return business.phoneDisplay ?? business.phone;
}
