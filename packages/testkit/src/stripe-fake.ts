import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the part of Stripe's API that billing calls through the official SDK (issue 18 item 6):
 * PaymentIntents and Refunds (create/retrieve, form-encoded bodies, Idempotency-Key replays), failures injected on
 * demand, and webhook events delivered to a service signed the way Stripe signs them. Point the SDK at it with
 * `stripeClient('sk_test_…', fake.url)`.
 *
 * The fake has no dependency on the SDK: the signer is passed in (tests give it `Stripe.webhooks.
 * generateTestHeaderString`), so the service under test verifies a header the real library made.
 */

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  receipt_email: string | null;
  latest_charge: string | null;
  created: number;
  livemode: false;
  last_payment_error: { code?: string; decline_code?: string; message?: string } | null;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  failure_reason: string | null;
  metadata: Record<string, string>;
  reason: string | null;
  created: number;
}

export interface FakeEvent {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  data: { object: Record<string, unknown> };
}

/** One recorded API call, for tests to assert what the SDK sent. */
export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Record<string, unknown>;
  status: number;
}

/** An error answer the next matching call(s) get, shaped as Stripe's `{ error: { type, code, message } }`. */
export interface InjectedFailure {
  status?: number;
  type?: string;
  code?: string;
  message?: string;
  /** Sets `Stripe-Should-Retry`: false stops the SDK's own network retries, so the caller's retries are tested. */
  shouldRetry?: boolean;
}

export type WebhookSigner = (opts: { payload: string; secret: string }) => string;

export interface StripeFakeOptions {
  port?: number;
  /** Where `deliver` posts events; may also be set later with `setWebhook`. */
  webhook?: { url: string; secret: string; sign: WebhookSigner };
  /** Status a new refund starts in: `pending` (default; settle it with `settleRefund`) or `succeeded`. */
  refundStartsAs?: 'pending' | 'succeeded';
}

export interface StripeFake {
  url: string;
  readonly paymentIntents: ReadonlyMap<string, FakePaymentIntent>;
  readonly refunds: ReadonlyMap<string, FakeRefund>;
  readonly requests: readonly FakeRequest[];
  /** The next `count` calls to `POST <path>` (e.g. '/v1/refunds') fail with `failure`. */
  failNext(path: string, count: number, failure?: InjectedFailure): void;
  /** Every call to `POST <path>` fails until `clearFailures`. */
  failAlways(path: string, failure?: InjectedFailure): void;
  clearFailures(): void;
  setWebhook(webhook: { url: string; secret: string; sign: WebhookSigner }): void;
  /** Marks an intent paid (as a confirmed card would) and returns the `payment_intent.succeeded` event. */
  succeedPaymentIntent(id: string): FakeEvent;
  /** A declined card: `payment_intent.payment_failed`. */
  failPaymentIntent(
    id: string,
    error?: { code?: string; decline_code?: string; message?: string },
  ): FakeEvent;
  /** Settles a pending refund: `refund.updated` (and `charge.refunded` when it succeeded). */
  settleRefund(id: string, outcome: 'succeeded' | 'failed', failureReason?: string): FakeEvent[];
  /** Builds an event of any type around an object (for replays and odd cases). */
  event(type: string, object: Record<string, unknown>): FakeEvent;
  /** Posts the event to the webhook, signed; resolves with the service's answer. */
  deliver(event: FakeEvent): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const API_VERSION = '2025-10-29.clover';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const token = (prefix: string) => `${prefix}_fake${randomBytes(10).toString('hex')}`;

/**
 * Parses Stripe's form encoding (`metadata[jobId]=…`, `allowed_payment_method_types[0]=card`) into objects and
 * arrays; values stay strings, as the API receives them.
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const params = new URLSearchParams(body);
  for (const [rawKey, value] of params) {
    const parts = rawKey.split(/[[\]]+/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1] as string);
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      if (container[part] === undefined) container[part] = nextIsIndex ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return out;
}

function integer(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const intents = new Map<string, FakePaymentIntent>();
  const refunds = new Map<string, FakeRefund>();
  const requests: FakeRequest[] = [];
  // Stripe replays the stored answer of a request with the same key (for 24 h); 5xx answers are not stored.
  const idempotent = new Map<string, { status: number; body: unknown; params: string }>();
  const failures = new Map<string, { remaining: number; failure: InjectedFailure }>();
  let webhook = options.webhook;

  function intent(id: string): FakePaymentIntent {
    const found = intents.get(id);
    if (!found)
      throw new ApiError(
        404,
        'invalid_request_error',
        `No such payment_intent: '${id}'`,
        'resource_missing',
        'id',
      );
    return found;
  }

  function refundedSoFar(intentId: string): number {
    let sum = 0;
    for (const r of refunds.values())
      if (r.payment_intent === intentId && (r.status === 'pending' || r.status === 'succeeded'))
        sum += r.amount;
    return sum;
  }

  function createIntent(params: Record<string, unknown>): FakePaymentIntent {
    const amount = integer(params.amount);
    if (amount === undefined || amount < 50)
      throw new ApiError(
        400,
        'invalid_request_error',
        'Amount must be at least 50 cents',
        'amount_too_small',
        'amount',
      );
    if (typeof params.currency !== 'string')
      throw new ApiError(
        400,
        'invalid_request_error',
        'Missing required param: currency.',
        'parameter_missing',
      );
    const id = token('pi');
    const created: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: params.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      description: typeof params.description === 'string' ? params.description : null,
      metadata: stringRecord(params.metadata),
      receipt_email: typeof params.receipt_email === 'string' ? params.receipt_email : null,
      latest_charge: null,
      created: nowSeconds(),
      livemode: false,
      last_payment_error: null,
    };
    intents.set(id, created);
    return created;
  }

  function createRefund(params: Record<string, unknown>): FakeRefund {
    if (typeof params.payment_intent !== 'string')
      throw new ApiError(
        400,
        'invalid_request_error',
        'One of `charge` or `payment_intent` is required.',
        'parameter_missing',
      );
    const paid = intent(params.payment_intent);
    if (paid.status !== 'succeeded')
      throw new ApiError(
        400,
        'invalid_request_error',
        `This PaymentIntent (${paid.id}) does not have a successful charge to refund.`,
        'charge_not_refundable',
      );
    const left = paid.amount_received - refundedSoFar(paid.id);
    const amount = params.amount === undefined ? left : integer(params.amount);
    if (amount === undefined || amount <= 0)
      throw new ApiError(
        400,
        'invalid_request_error',
        'Invalid positive integer',
        'parameter_invalid_integer',
      );
    if (amount > left)
      throw new ApiError(
        400,
        'invalid_request_error',
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        left === 0 ? 'charge_already_refunded' : 'amount_too_large',
        'amount',
      );
    const refund: FakeRefund = {
      id: token('re'),
      object: 'refund',
      amount,
      currency: paid.currency,
      payment_intent: paid.id,
      charge: paid.latest_charge,
      status: options.refundStartsAs ?? 'pending',
      failure_reason: null,
      metadata: stringRecord(params.metadata),
      reason: typeof params.reason === 'string' ? params.reason : null,
      created: nowSeconds(),
    };
    refunds.set(refund.id, refund);
    return refund;
  }

  function route(method: string, path: string, params: Record<string, unknown>): unknown {
    const [, version, resource, id, action] = path.split('/');
    if (version !== 'v1')
      throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${path})`);
    if (resource === 'payment_intents') {
      if (method === 'POST' && !id) return createIntent(params);
      if (method === 'GET' && id && !action) return intent(id);
    }
    if (resource === 'refunds') {
      if (method === 'POST' && !id) return createRefund(params);
      if (method === 'GET' && id && !action) {
        const found = refunds.get(id);
        if (!found)
          throw new ApiError(
            404,
            'invalid_request_error',
            `No such refund: '${id}'`,
            'resource_missing',
            'id',
          );
        return found;
      }
    }
    throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  function injectedFailure(method: string, path: string): InjectedFailure | undefined {
    if (method !== 'POST') return undefined;
    const entry = failures.get(path);
    if (!entry || entry.remaining === 0) return undefined;
    if (entry.remaining > 0) entry.remaining -= 1;
    return entry.failure;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://stripe.fake');
    const raw = method === 'POST' ? await readBody(req) : url.search.slice(1);
    const params = parseStripeForm(raw);
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method, path: url.pathname, idempotencyKey, params, status });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': token('req'), ...headers });
      res.end(JSON.stringify(body));
    };
    if (!/^Bearer sk_test_/.test(req.headers.authorization ?? ''))
      return answer(401, {
        error: {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided (the fake takes sk_test_ keys)',
        },
      });
    const storeKey = idempotencyKey ? `${method} ${url.pathname} ${idempotencyKey}` : undefined;
    const stored = storeKey ? idempotent.get(storeKey) : undefined;
    if (stored) {
      if (stored.params !== raw)
        return answer(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      return answer(stored.status, stored.body, { 'idempotent-replayed': 'true' });
    }
    const failure = injectedFailure(method, url.pathname);
    if (failure) {
      const status = failure.status ?? 500;
      return answer(
        status,
        {
          error: {
            type: failure.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
            ...(failure.code ? { code: failure.code } : {}),
            message: failure.message ?? 'Injected failure (Stripe fake)',
          },
        },
        failure.shouldRetry === undefined ? {} : { 'stripe-should-retry': String(failure.shouldRetry) },
      );
    }
    let status = 200;
    let body: unknown;
    try {
      body = route(method, url.pathname, params);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      status = err.status;
      body = {
        error: {
          type: err.type,
          message: err.message,
          ...(err.code ? { code: err.code } : {}),
          ...(err.param ? { param: err.param } : {}),
        },
      };
    }
    if (storeKey && method === 'POST' && status < 500)
      idempotent.set(storeKey, { status, body: structuredClone(body), params: raw });
    answer(status, body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function event(type: string, object: Record<string, unknown>): FakeEvent {
    return {
      id: token('evt'),
      object: 'event',
      type,
      api_version: API_VERSION,
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      data: { object: structuredClone(object) },
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    paymentIntents: intents,
    refunds,
    requests,
    failNext(path, count, failure = {}) {
      failures.set(path, { remaining: count, failure });
    },
    failAlways(path, failure = {}) {
      failures.set(path, { remaining: -1, failure });
    },
    clearFailures() {
      failures.clear();
    },
    setWebhook(next) {
      webhook = next;
    },
    succeedPaymentIntent(id) {
      const paid = intent(id);
      paid.status = 'succeeded';
      paid.amount_received = paid.amount;
      paid.latest_charge = paid.latest_charge ?? token('ch');
      paid.last_payment_error = null;
      return event('payment_intent.succeeded', paid as unknown as Record<string, unknown>);
    },
    failPaymentIntent(id, error = { code: 'card_declined', decline_code: 'generic_decline' }) {
      const unpaid = intent(id);
      unpaid.status = 'requires_payment_method';
      unpaid.last_payment_error = { message: 'Your card was declined.', ...error };
      return event('payment_intent.payment_failed', unpaid as unknown as Record<string, unknown>);
    },
    settleRefund(id, outcome, failureReason = 'expired_or_canceled_card') {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`No such refund: ${id}`);
      if (refund.status !== 'pending') throw new Error(`Refund ${id} is ${refund.status}, not pending`);
      refund.status = outcome;
      refund.failure_reason = outcome === 'failed' ? failureReason : null;
      const events = [event('refund.updated', refund as unknown as Record<string, unknown>)];
      if (outcome === 'succeeded') {
        const paid = intent(refund.payment_intent);
        const refunded = refundedSoFar(paid.id);
        events.push(
          event('charge.refunded', {
            id: paid.latest_charge ?? token('ch'),
            object: 'charge',
            amount: paid.amount_received,
            amount_refunded: refunded,
            refunded: refunded >= paid.amount_received,
            currency: paid.currency,
            payment_intent: paid.id,
            status: 'succeeded',
            refunds: { object: 'list', data: [refund] },
          }),
        );
      }
      return events;
    },
    event,
    async deliver(ev) {
      if (!webhook) throw new Error('Stripe fake: no webhook configured (setWebhook)');
      const payload = JSON.stringify(ev);
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': webhook.sign({ payload, secret: webhook.secret }),
        },
        body: payload,
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
