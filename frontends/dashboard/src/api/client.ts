/**
 * The dashboard's typed clients, one per service document (`npm run api:types`): every call's path, parameters,
 * body and answer are the service's own, and it still goes through @tyres/platform's one HTTP client.
 */
import { typedApi } from '@tyres/platform';
import type { paths as BillingPaths } from '@tyres/platform/api-types/billing';
import type { paths as BookingPaths } from '@tyres/platform/api-types/booking';
import type { paths as GatewayPaths } from '@tyres/platform/api-types/gateway';
import type { paths as JobsPaths } from '@tyres/platform/api-types/jobs';
import type { paths as ReportingPaths } from '@tyres/platform/api-types/reporting';

export const bookingApi = typedApi<BookingPaths>();
export const jobsApi = typedApi<JobsPaths>();
export const billingApi = typedApi<BillingPaths>();
export const reportingApi = typedApi<ReportingPaths>();
/** The gateway's own routes: the session and staff accounts. */
export const gatewayApi = typedApi<GatewayPaths>();
