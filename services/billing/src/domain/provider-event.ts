/** The parts of a Stripe event billing acts on (the same shape is built by the test mode). */
export interface ProviderEvent {
  id: string;
  type: string;
  data: {
    object: {
      id: string;
      object?: string;
      amount?: number;
      amount_received?: number;
      currency?: string;
      status?: string;
      metadata?: Record<string, string>;
      /** On a refund or a charge: the PaymentIntent it belongs to. */
      payment_intent?: string | null;
      last_payment_error?: { code?: string; decline_code?: string; message?: string } | null;
    };
  };
}

/** The minimum billing relies on: an event id and type, and a data.object whose id (if any) is a string. */
export function isProviderEvent(value: unknown): value is ProviderEvent {
  if (!value || typeof value !== 'object') return false;
  const e = value as { id?: unknown; type?: unknown; data?: { object?: unknown } };
  if (typeof e.id !== 'string' || e.id.length === 0 || e.id.length > 255 || typeof e.type !== 'string')
    return false;
  const object = e.data?.object as { id?: unknown } | undefined;
  if (!object || typeof object !== 'object') return false;
  return object.id === undefined || typeof object.id === 'string';
}
