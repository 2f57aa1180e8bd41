import type { AppConfig, AppName } from './runtime-config';

export interface LocationLike {
  hostname: string;
  pathname: string;
  search: string;
}

export function isBusinessHost(hostname: string, config: Pick<AppConfig, 'businessHosts'>): boolean {
  return config.businessHosts.includes(hostname.toLowerCase());
}

function isAdminPath(pathname: string): boolean {
  return (
    pathname === '/dashboard' ||
    pathname.startsWith('/dashboard/') ||
    pathname === '/auth' ||
    pathname === '/auth/'
  );
}

/**
 * Spec section 2: the admin app is used when the host is the business host, the query parameter
 * domain equals business, or the path starts with /dashboard (and for /auth, the login page).
 * Everything else is the public site.
 */
export function pickApp(location: LocationLike, config: Pick<AppConfig, 'businessHosts'>): AppName {
  if (isBusinessHost(location.hostname, config)) return 'dashboard';
  if (new URLSearchParams(location.search).get('domain') === 'business') return 'dashboard';
  if (isAdminPath(location.pathname)) return 'dashboard';
  return 'public';
}

/** Home of each app: the dashboard lives at / only on the business host. */
export function homePathFor(
  app: AppName,
  hostname: string,
  config: Pick<AppConfig, 'businessHosts'>,
): string {
  if (app === 'dashboard' && !isBusinessHost(hostname, config)) return '/dashboard';
  return '/';
}
