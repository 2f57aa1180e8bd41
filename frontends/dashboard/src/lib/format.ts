import { serviceLabel as serviceName } from '@tyres/kernel';

/** Service types travel hyphenated ("new-tyres") and are shown with a space ("new tyres"). */
export function serviceLabel(serviceType: string | null | undefined): string {
  return (serviceType ?? '').replace(/-/g, ' ');
}

/** A service's name as customers and staff read it ("New Tyres", "Mobile Battery Service"): the contract's label. */
export function serviceOptionLabel(serviceType: string): string {
  return serviceName(serviceType);
}

/** Cuts text at `max` characters with an ellipsis (addresses in lists: 30 on phones, 20 in tables). */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

/** "in-progress" / "in_progress" -> "In Progress". */
export function statusLabel(status: string): string {
  return status
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** "cost-of-goods-sold" -> "Cost of goods sold"; billing's "surcharge" line -> "Card surcharge". */
export function categoryLabel(category: string): string {
  if (category === 'surcharge') return 'Card surcharge';
  const text = category.replace(/-/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Vehicle as one line: "2019 Toyota Corolla". */
export function vehicleLine(
  vehicle: { year?: number | string | null; make?: string | null; model?: string | null } | null | undefined,
): string {
  if (!vehicle) return '—';
  return (
    [vehicle.year, vehicle.make, vehicle.model]
      .filter((p) => p !== null && p !== undefined && p !== '')
      .join(' ') || '—'
  );
}

/** Phone number for tel:/sms: links (spaces and punctuation removed, a leading + kept). */
export function dialable(phone: string): string {
  return phone.replace(/[^\d+]/g, '');
}
