/** The services a customer can book, their labels, the payment methods and the tyre quantity rules (spec 3, 5, 9). */

/** Service type ids, in the order the booking dialog and the staff form list them. */
export const SERVICE_TYPES = [
  'new-tyres',
  'puncture-repair',
  'battery-service',
  'emergency-callout',
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** How each service is named to customers and staff (the landing page's cards, spec section 2). */
export const SERVICE_LABELS: Readonly<Record<ServiceType, string>> = Object.freeze({
  'new-tyres': 'New Tyres',
  'puncture-repair': 'Puncture Repair',
  'battery-service': 'Mobile Battery Service',
  'emergency-callout': 'Emergency Callout',
});

export function isServiceType(value: unknown): value is ServiceType {
  return typeof value === 'string' && (SERVICE_TYPES as readonly string[]).includes(value);
}

/** The label of a service type; an unknown id is shown as given, hyphens read as spaces. */
export function serviceLabel(serviceType: string): string {
  return isServiceType(serviceType) ? SERVICE_LABELS[serviceType] : serviceType.replace(/-/g, ' ');
}

/** Options for a service picker: `{ id, label }` (spec section 3, "Service list options"). */
export const SERVICE_OPTIONS: readonly { id: ServiceType; label: string }[] = SERVICE_TYPES.map((id) => ({
  id,
  label: SERVICE_LABELS[id],
}));

export const PAYMENT_METHODS = ['onsite', 'prepaid'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Spec section 3: onsite is "Cash on Delivery", prepaid "Prepaid Online". */
export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = Object.freeze({
  onsite: 'Cash on Delivery',
  prepaid: 'Prepaid Online',
});

export const MIN_TYRE_QUANTITY = 1;
export const MAX_TYRE_QUANTITY = 4;
/** The quantity a form starts with when none is chosen: one tyre online, a set of four on the staff form. */
export const DEFAULT_TYRE_QUANTITY = { online: 1, staff: 4 } as const;

/** New tyres carry a size, quantity and brand; other services never do. */
export const takesTyres = (serviceType: string): boolean => serviceType === 'new-tyres';

/**
 * Online payment is not offered for battery service (quoted on site) nor when pricing needs a callback (spec
 * section 4: "Prepaid is forced to onsite ...").
 */
export function prepaidAllowed(serviceType: string, callbackRequired: boolean): boolean {
  return serviceType !== 'battery-service' && !callbackRequired;
}
