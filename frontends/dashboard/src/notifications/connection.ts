import type { BookingNotification } from '../api/types';
import {
  NOTIFICATION_PING_MS,
  RECONNECT_BASE_MS,
  RECONNECT_MAX_ATTEMPTS,
  RECONNECT_MAX_MS,
} from '../lib/constants';

/**
 * The live notification connection (spec sections 4, 7 and 9): WebSocket /ws/notifications; on open the client
 * subscribes (`subscribe_suburbs`, empty = every suburb) and pings every 30 s; the server sends `new_booking`
 * (and `job_assigned`, `job_unassigned`, `sms_delivery` for an SMS this user asked for, and `booking_rescheduled`,
 * `booking_cancelled`, `booking_updated` when a booking changes after it was made).
 * An abnormal close reconnects after 1 s, doubling up to 30 s, at most 5 attempts in a row; a normal close
 * (1000), a deactivated account (4003) or stop() does not. Plain class with injectable socket and timers so the rules are unit-tested.
 */

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'disconnected';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const OPEN = 1;
const NORMAL_CLOSURE = 1000;
/** notify closes a deactivated user's socket with 4003: reconnecting would only be refused. */
const ACCOUNT_DEACTIVATED = 4003;

/** Delay before reconnect attempt n (1-based): 1 s, 2 s, 4 s, 8 s, 16 s, never above 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_BASE_MS * 2 ** (attempt - 1), RECONNECT_MAX_MS);
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * A card-worthy message: `new_booking` (spec), or `job_assigned` (notify tells a technician when a job is assigned to
 * them; shown the same way, titled "Job Assigned"). Null for anything else (pongs, errors, malformed JSON).
 */
export function parseNotification(raw: unknown): BookingNotification | null {
  if (typeof raw !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object') return null;
  const { type, data } = message as { type?: unknown; data?: unknown };
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (type === 'new_booking') {
    if (typeof d.id !== 'string' && typeof d.id !== 'number') return null;
    return {
      type: 'new_booking',
      data: {
        id: String(d.id),
        jobNumber: str(d.jobNumber),
        serviceType: str(d.serviceType),
        suburb: str(d.suburb),
        timeSlot: str(d.timeSlot),
        createdAt: str(d.createdAt) || new Date().toISOString(),
        ...(typeof d.scheduledDate === 'string' ? { scheduledDate: d.scheduledDate } : {}),
      },
    };
  }
  if (type === 'job_assigned') {
    if (typeof d.jobId !== 'string') return null;
    return {
      type: 'job_assigned',
      data: {
        id: d.jobId,
        jobNumber: str(d.jobNumber),
        serviceType: str(d.serviceType),
        suburb: str(d.suburb),
        timeSlot: str(d.timeSlot),
        createdAt: str(d.assignedAt) || new Date().toISOString(),
        ...(typeof d.scheduledDate === 'string' ? { scheduledDate: d.scheduledDate } : {}),
      },
    };
  }
  return null;
}

/** What became of an SMS this staff member asked for (notify's `sms_delivery` message, issue 12). */
export interface SmsDelivery {
  jobId: string | null;
  purpose: string;
  /** sent: a provider (Twilio) accepted it; recorded: no provider is configured; failed: given up. */
  status: 'sent' | 'recorded' | 'failed';
  message: string;
}

const SMS_STATUSES: readonly SmsDelivery['status'][] = ['sent', 'recorded', 'failed'];

/** An `sms_delivery` message, or null for anything else (including one with a status it does not know). */
export function parseSmsDelivery(raw: unknown): SmsDelivery | null {
  if (typeof raw !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object') return null;
  const { type, data } = message as { type?: unknown; data?: unknown };
  if (type !== 'sms_delivery' || !data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (!SMS_STATUSES.includes(d.status as SmsDelivery['status'])) return null;
  return {
    jobId: typeof d.jobId === 'string' ? d.jobId : null,
    purpose: str(d.purpose),
    status: d.status as SmsDelivery['status'],
    message: str(d.message),
  };
}

/**
 * A change to a booking after it was made (issue 18; notify's `booking_rescheduled`, `booking_cancelled`,
 * `booking_updated`, sent to admins and the job's technician): the customer moved or cancelled it on their manage
 * page, staff cancelled it through booking, or the customer corrected their details.
 */
export type BookingChange =
  | {
      kind: 'rescheduled';
      jobId: string;
      jobNumber: string;
      from: { scheduledDate: string; timeSlot: string } | null;
      to: { scheduledDate: string; timeSlot: string };
      by: 'customer' | 'staff';
    }
  | {
      kind: 'cancelled';
      jobId: string;
      jobNumber: string;
      by: 'customer' | 'staff';
      refund: string | null;
      fee: string | null;
      feeWaived: boolean;
      /** Staff marked the customer a no-show (notify's `kind: 'no_show'`): charged in full, not a cancellation. */
      noShow: boolean;
    }
  | { kind: 'updated'; jobId: string; jobNumber: string; changed: string[] };

const slotOf = (v: unknown): { scheduledDate: string; timeSlot: string } | null => {
  if (!v || typeof v !== 'object') return null;
  const { scheduledDate, timeSlot } = v as Record<string, unknown>;
  return typeof scheduledDate === 'string' && typeof timeSlot === 'string'
    ? { scheduledDate, timeSlot }
    : null;
};
const moneyOf = (v: unknown) => (typeof v === 'string' && /^\d+\.\d{2}$/.test(v) ? v : null);
const byOf = (v: unknown): 'customer' | 'staff' => (v === 'staff' ? 'staff' : 'customer');

/** A `booking_*` message, or null for anything else (or one without the job it is about). */
export function parseBookingChange(raw: unknown): BookingChange | null {
  if (typeof raw !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object') return null;
  const { type, data } = message as { type?: unknown; data?: unknown };
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (typeof d.jobId !== 'string' || !d.jobId) return null;
  const base = { jobId: d.jobId, jobNumber: str(d.jobNumber) };
  if (type === 'booking_rescheduled') {
    const to = slotOf(d.to);
    if (!to) return null;
    return { kind: 'rescheduled', ...base, from: slotOf(d.from), to, by: byOf(d.rescheduledBy) };
  }
  if (type === 'booking_cancelled')
    return {
      kind: 'cancelled',
      ...base,
      by: byOf(d.cancelledBy),
      refund: moneyOf(d.refund),
      fee: moneyOf(d.fee),
      feeWaived: d.feeWaived === true,
      noShow: d.kind === 'no_show',
    };
  if (type === 'booking_updated')
    return {
      kind: 'updated',
      ...base,
      changed: Array.isArray(d.changed) ? d.changed.filter((c): c is string => typeof c === 'string') : [],
    };
  return null;
}

/** Messages that change what the job lists show without deserving a card (e.g. a job taken off a technician). */
export function isListChange(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  try {
    return (JSON.parse(raw) as { type?: unknown }).type === 'job_unassigned';
  } catch {
    return false;
  }
}

export function notificationsUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws/notifications`;
}

export interface ConnectionOptions {
  url: string;
  onNotification: (notification: BookingNotification) => void;
  /** A message that changes job lists without a card (job_unassigned). */
  onListChange?: () => void;
  /** The outcome of an SMS this user asked for (sms_delivery). */
  onSmsDelivery?: (delivery: SmsDelivery) => void;
  /** A booking rescheduled, cancelled or corrected after it was made (booking_*). */
  onBookingChange?: (change: BookingChange) => void;
  onStatus: (status: ConnectionStatus) => void;
  /** Suburbs to hear about; empty = all. */
  suburbs?: string[];
  createSocket?: (url: string) => SocketLike;
  timers?: Timers;
}

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

export class NotificationConnection {
  private socket: SocketLike | null = null;
  private ping: unknown = null;
  private retry: unknown = null;
  /** Reconnect attempts since the last successful open. */
  private attempts = 0;
  private stopped = true;
  private readonly timers: Timers;
  private readonly createSocket: (url: string) => SocketLike;

  constructor(private readonly options: ConnectionOptions) {
    this.timers = options.timers ?? defaultTimers;
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempts = 0;
    this.connect('connecting');
  }

  /** Starts again after giving up (the "Reconnect" button). */
  restart(): void {
    this.stop();
    this.start();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(NORMAL_CLOSURE, 'client stopped');
      } catch {
        // already closed
      }
    }
    this.options.onStatus('disconnected');
  }

  private clearTimers(): void {
    if (this.ping !== null) this.timers.clearInterval(this.ping);
    if (this.retry !== null) this.timers.clearTimeout(this.retry);
    this.ping = this.retry = null;
  }

  private send(message: unknown): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private connect(status: ConnectionStatus): void {
    this.options.onStatus(status);
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.options.onStatus('live');
      this.send({ type: 'subscribe_suburbs', suburbs: this.options.suburbs ?? [] });
      this.ping = this.timers.setInterval(() => this.send({ type: 'ping' }), NOTIFICATION_PING_MS);
    };
    socket.onmessage = (event) => {
      const notification = parseNotification(event.data);
      if (notification) {
        this.options.onNotification(notification);
        return;
      }
      const change = parseBookingChange(event.data);
      if (change) {
        this.options.onBookingChange?.(change);
        return;
      }
      const sms = parseSmsDelivery(event.data);
      if (sms) this.options.onSmsDelivery?.(sms);
      else if (isListChange(event.data)) this.options.onListChange?.();
    };
    socket.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    socket.onclose = (event) => {
      this.clearTimers();
      this.socket = null;
      if (this.stopped) return;
      if (event.code === NORMAL_CLOSURE || event.code === ACCOUNT_DEACTIVATED) {
        this.options.onStatus('disconnected');
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.attempts >= RECONNECT_MAX_ATTEMPTS) {
      this.options.onStatus('disconnected');
      return;
    }
    this.attempts += 1;
    this.options.onStatus('reconnecting');
    this.retry = this.timers.setTimeout(() => {
      this.retry = null;
      if (!this.stopped) this.connect('reconnecting');
    }, reconnectDelay(this.attempts));
  }
}
