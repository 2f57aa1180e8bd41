import { createHash } from 'node:crypto';
import { perthClock12 } from '@tyres/kernel';

/** Spec section 4: starting work offers an SMS whose ETA is 30 minutes from now. */
export const EN_ROUTE_ETA_MINUTES = 30;
export const EN_ROUTE_PURPOSE = 'technician-en-route';

/**
 * A stable UUID (version 5 layout, SHA-1) for a name, so the same request always gets the same id: notify derives
 * its BullMQ job id from SmsRequested.requestId, and a retried request then collapses into one message.
 */
export function stableUuid(name: string): string {
  const hash = createHash('sha1').update(`tyres.jobs:${name}`).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** "2:35 PM": the customer's ETA, `minutes` from `now`, on the Perth clock. */
export function etaText(now: Date = new Date(), minutes = EN_ROUTE_ETA_MINUTES): string {
  return perthClock12(new Date(now.getTime() + minutes * 60_000));
}

/** Digits with an optional leading +, 8 to 20 characters (the SmsRequested contract); undefined if unusable. */
export function smsNumber(phone: string): string | undefined {
  const cleaned = phone.replace(/[\s\-().]/g, '');
  return /^\+?\d{8,19}$/.test(cleaned) ? cleaned : undefined;
}

const SERVICE_LABEL: Record<string, string> = {
  'new-tyres': 'new tyres',
  'puncture-repair': 'puncture repair',
  'battery-service': 'battery service',
  'emergency-callout': 'emergency callout',
};

export interface EnRouteMessage {
  to: string;
  body: string;
  purpose: typeof EN_ROUTE_PURPOSE;
  eta: string;
}

/** The "technician en route" SMS, or undefined when the customer's phone cannot take an SMS. */
export function enRouteMessage(
  job: { jobNumber: string; customerName: string; customerPhone: string; serviceType: string },
  now: Date = new Date(),
): EnRouteMessage | undefined {
  const to = smsNumber(job.customerPhone);
  if (!to) return undefined;
  const eta = etaText(now, EN_ROUTE_ETA_MINUTES);
  const firstName = job.customerName.trim().split(/\s+/)[0] || 'there';
  const service = SERVICE_LABEL[job.serviceType] ?? job.serviceType.replace(/-/g, ' ');
  const body =
    `Hi ${firstName}, your technician is on the way for your ${service} booking (job ${job.jobNumber}). ` +
    `Estimated arrival: ${eta} (about ${EN_ROUTE_ETA_MINUTES} minutes).`;
  return { to, body, purpose: EN_ROUTE_PURPOSE, eta };
}
