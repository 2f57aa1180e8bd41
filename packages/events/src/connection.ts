import { EventEmitter } from 'node:events';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { errorFields, noopLogger, type Logger } from './logger';

/**
 * One AMQP connection that reconnects for ever with exponential backoff and jitter, plus channels that are
 * re-created (and re-set-up: topology, prefetch, consumers) on every new connection or after a channel error.
 *
 * Written on plain amqplib rather than amqp-connection-manager because we need: exponential backoff (the
 * manager waits a fixed time), an 'error' listener on every channel (a channel error without one takes the
 * connection down), acks sent on the very channel that delivered the message (an ack for a stale delivery tag
 * on a new channel is a channel error), and a close() that stops consuming before closing.
 *
 * No emitter here ever emits 'error', so a broker problem can never crash the process.
 */

export interface ReconnectOptions {
  /** First delay after a failure (default 250 ms). */
  initialDelayMs?: number;
  /** Cap (default 15 s). */
  maxDelayMs?: number;
  /** Growth per failed attempt (default 2). */
  multiplier?: number;
  /** Random spread, 0..1 (default 0.2 = ±20%). */
  jitter?: number;
}

export interface AmqpConnectionOptions {
  url: string;
  /** Shown as the connection name in the RabbitMQ management UI / rabbitmqctl (e.g. "jobs-consumer"). */
  name: string;
  logger?: Logger;
  /** AMQP heartbeat (default 10 s). A value already in the URL (`?heartbeat=`) wins. */
  heartbeatSeconds?: number;
  /** TCP connect timeout (default 5000 ms). */
  connectTimeoutMs?: number;
  reconnect?: ReconnectOptions;
}

export function backoffDelay(attempt: number, options: ReconnectOptions = {}): number {
  const initial = options.initialDelayMs ?? 250;
  const max = options.maxDelayMs ?? 15_000;
  const multiplier = options.multiplier ?? 2;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.2));
  const base = Math.min(max, initial * multiplier ** Math.max(0, attempt - 1));
  const spread = base * jitter;
  return Math.max(0, Math.min(max, Math.round(base - spread + Math.random() * spread * 2)));
}

/** Adds `heartbeat` to the URL unless it already carries one. */
function withHeartbeat(url: string, seconds: number): string {
  try {
    const u = new URL(url);
    if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', String(seconds));
    return u.toString();
  } catch {
    return url;
  }
}

/** The URL without credentials, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}

const sleepCancelled = Symbol('cancelled');

interface SleepHandle {
  timer: NodeJS.Timeout;
  resolve: (v: typeof sleepCancelled | undefined) => void;
}

async function closeQuietly(closable: { close(): Promise<void> }, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    closable.close().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

export interface AmqpConnectionEvents {
  connected: [model: ChannelModel];
  disconnected: [err: Error | undefined];
  'connect-failed': [err: Error, attempt: number, delayMs: number];
  closed: [];
}

export class AmqpConnection extends EventEmitter<AmqpConnectionEvents> {
  private model: ChannelModel | undefined;
  private closing = false;
  private closed = false;
  private loopRunning = false;
  private loop: Promise<void> = Promise.resolve();
  private failures = 0;
  private connectedAt = 0;
  private sleeper: SleepHandle | undefined;
  private readonly channels = new Set<ManagedChannel>();
  private readonly log: Logger;
  private readonly url: string;
  private started = false;

  constructor(private readonly options: AmqpConnectionOptions) {
    super();
    this.setMaxListeners(0);
    this.log = (options.logger ?? noopLogger).child({ component: 'amqp', connection: options.name });
    this.url = withHeartbeat(options.url, options.heartbeatSeconds ?? 10);
  }

  get name(): string {
    return this.options.name;
  }

  /** The live amqplib connection, if any (diagnostics and tests). */
  get current(): ChannelModel | undefined {
    return this.model;
  }

  isConnected(): boolean {
    return this.model !== undefined;
  }

  /** Starts connecting in the background (idempotent). */
  start(): this {
    if (this.closing) throw new Error('AmqpConnection is closed');
    if (!this.started) {
      this.started = true;
      this.runLoop(0);
    }
    return this;
  }

  /** Resolves with the live connection, waiting up to `timeoutMs` for one. */
  waitForConnection(timeoutMs: number): Promise<ChannelModel> {
    if (this.model) return Promise.resolve(this.model);
    if (this.closing) return Promise.reject(new Error('AmqpConnection is closed'));
    return new Promise((resolve, reject) => {
      const onConnected = (model: ChannelModel) => {
        clearTimeout(timer);
        this.off('closed', onClosed);
        resolve(model);
      };
      const onClosed = () => {
        clearTimeout(timer);
        this.off('connected', onConnected);
        reject(new Error('AmqpConnection is closed'));
      };
      const timer = setTimeout(() => {
        this.off('connected', onConnected);
        this.off('closed', onClosed);
        reject(new Error(`No AMQP connection to ${redactUrl(this.options.url)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.once('connected', onConnected);
      this.once('closed', onClosed);
    });
  }

  /** A channel that follows this connection: opened (and set up) on every (re)connect. */
  channel(options: ManagedChannelOptions): ManagedChannel {
    const channel = new ManagedChannel(this, options, this.log);
    this.channels.add(channel);
    channel.once('closed', () => this.channels.delete(channel));
    if (this.model) channel.attach(this.model);
    return channel;
  }

  /** Closes every channel, then the connection; stops reconnecting. */
  async close(): Promise<void> {
    if (this.closing) {
      if (!this.closed) await new Promise<void>((resolve) => this.once('closed', () => resolve()));
      return;
    }
    this.closing = true;
    this.cancelSleep();
    // An attempt in flight finishes (and closes what it opened) within the connect timeout.
    await closeQuietly({ close: () => this.loop }, (this.options.connectTimeoutMs ?? 5000) + 1000);
    await Promise.all([...this.channels].map((c) => c.close()));
    const model = this.model;
    this.model = undefined;
    if (model) await closeQuietly(model);
    this.closed = true;
    this.emit('closed');
  }

  private runLoop(initialDelayMs: number): void {
    if (this.loopRunning || this.closing) return;
    this.loopRunning = true;
    this.loop = (async () => {
      try {
        if (initialDelayMs > 0 && (await this.sleep(initialDelayMs)) === sleepCancelled) return;
        while (!this.closing && !this.model) {
          try {
            const model = await connect(this.url, {
              clientProperties: { connection_name: this.options.name },
              timeout: this.options.connectTimeoutMs ?? 5000,
            });
            if (this.closing) {
              await closeQuietly(model);
              return;
            }
            this.adopt(model);
          } catch (err) {
            this.failures += 1;
            const delayMs = backoffDelay(this.failures, this.options.reconnect);
            this.log.warn(
              { ...errorFields(err), attempt: this.failures, delayMs, url: redactUrl(this.options.url) },
              'AMQP connect failed; retrying',
            );
            this.emit('connect-failed', err as Error, this.failures, delayMs);
            if ((await this.sleep(delayMs)) === sleepCancelled) return;
          }
        }
      } finally {
        this.loopRunning = false;
      }
    })();
  }

  private adopt(model: ChannelModel): void {
    model.on('error', (err: Error) => {
      this.log.warn(errorFields(err), 'AMQP connection error');
    });
    model.on('close', (err?: Error) => this.onModelClose(model, err));
    model.on('blocked', (reason: string) =>
      this.log.warn({ reason }, 'AMQP connection blocked by the broker'),
    );
    model.on('unblocked', () => this.log.info({}, 'AMQP connection unblocked'));
    model.on('handler-error', (err: Error, eventName: string) =>
      this.log.error({ ...errorFields(err), eventName }, 'AMQP event listener threw'),
    );
    this.model = model;
    this.connectedAt = Date.now();
    this.log.info({ url: redactUrl(this.options.url), afterFailures: this.failures }, 'AMQP connected');
    this.emit('connected', model);
    for (const channel of this.channels) channel.attach(model);
  }

  private onModelClose(model: ChannelModel, err: Error | undefined): void {
    if (this.model !== model) return;
    this.model = undefined;
    for (const channel of this.channels) channel.detach();
    this.emit('disconnected', err);
    if (this.closing) return;
    // A connection that dies right after opening counts as a failure, so a flapping broker is not hammered.
    const shortLived = Date.now() - this.connectedAt < 10_000;
    this.failures = shortLived ? this.failures + 1 : 0;
    const delayMs = shortLived ? backoffDelay(this.failures, this.options.reconnect) : 0;
    this.log.warn(
      { ...(err ? errorFields(err) : {}), reconnectInMs: delayMs },
      'AMQP connection lost; reconnecting',
    );
    this.runLoop(delayMs);
  }

  private sleep(ms: number): Promise<typeof sleepCancelled | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve(undefined);
      }, ms);
      this.sleeper = { timer, resolve };
    });
  }

  private cancelSleep(): void {
    const s = this.sleeper;
    if (!s) return;
    this.sleeper = undefined;
    clearTimeout(s.timer);
    s.resolve(sleepCancelled);
  }
}

export interface ManagedChannelOptions {
  /** For logs. */
  name: string;
  /**
   * Runs on every new channel before it is handed out: declare topology, set prefetch, start consumers.
   * If it throws, the channel is closed and opened again with backoff.
   */
  setup?: (channel: ConfirmChannel) => Promise<void>;
  reconnect?: ReconnectOptions;
}

export interface ManagedChannelEvents {
  ready: [channel: ConfirmChannel];
  lost: [];
  closed: [];
}

/** A confirm channel that is re-opened after a connection loss or a channel error. */
export class ManagedChannel extends EventEmitter<ManagedChannelEvents> {
  private channel: ConfirmChannel | undefined;
  private model: ChannelModel | undefined;
  private opening: Promise<void> | undefined;
  private openAgain = false;
  private closing = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly log: Logger;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: ManagedChannelOptions,
    logger: Logger,
  ) {
    super();
    this.setMaxListeners(0);
    this.log = logger.child({ channel: options.name });
  }

  /** The ready channel, or undefined while (re)connecting. */
  get current(): ConfirmChannel | undefined {
    return this.channel;
  }

  isReady(): boolean {
    return this.channel !== undefined;
  }

  /** Resolves with a ready channel, waiting up to `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<ConfirmChannel> {
    if (this.channel) return Promise.resolve(this.channel);
    if (this.closing) return Promise.reject(new Error(`Channel ${this.options.name} is closed`));
    return new Promise((resolve, reject) => {
      const onReady = (ch: ConfirmChannel) => {
        clearTimeout(timer);
        this.off('closed', onClosed);
        resolve(ch);
      };
      const onClosed = () => {
        clearTimeout(timer);
        this.off('ready', onReady);
        reject(new Error(`Channel ${this.options.name} is closed`));
      };
      const timer = setTimeout(() => {
        this.off('ready', onReady);
        this.off('closed', onClosed);
        reject(
          new Error(
            `RabbitMQ unavailable: no ${this.options.name} channel within ${timeoutMs} ms` +
              (this.connection.isConnected() ? '' : ' (not connected)'),
          ),
        );
      }, timeoutMs);
      this.once('ready', onReady);
      this.once('closed', onClosed);
    });
  }

  /** Throws away the current channel and opens a new one (e.g. after the broker cancelled a consumer). */
  reopen(): void {
    const ch = this.channel;
    if (ch) void closeQuietly(ch);
  }

  /** @internal called by AmqpConnection on (re)connect. */
  attach(model: ChannelModel): void {
    this.model = model;
    this.failures = 0;
    void this.open(model);
  }

  /** @internal called by AmqpConnection when the connection is lost. */
  detach(): void {
    this.model = undefined;
    this.clearRetry();
    if (this.channel) {
      this.channel = undefined;
      this.emit('lost');
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.clearRetry();
    // Let a setup in progress finish first, so nothing is declared or consumed after close() returns.
    if (this.opening) await closeQuietly({ close: () => this.opening ?? Promise.resolve() });
    const ch = this.channel;
    this.channel = undefined;
    if (ch) await closeQuietly(ch);
    this.emit('closed');
  }

  private open(model: ChannelModel): Promise<void> {
    if (this.closing || this.channel) return Promise.resolve();
    if (this.opening) {
      this.openAgain = true;
      return this.opening;
    }
    const opening = this.doOpen(model).finally(() => {
      this.opening = undefined;
      if (this.openAgain) {
        this.openAgain = false;
        if (this.model && !this.channel && !this.closing) void this.open(this.model);
      }
    });
    this.opening = opening;
    return opening;
  }

  private async doOpen(model: ChannelModel): Promise<void> {
    let ch: ConfirmChannel | undefined;
    try {
      ch = await model.createConfirmChannel();
      const created = ch;
      created.on('error', (err: Error) => this.log.warn(errorFields(err), 'AMQP channel error'));
      created.on('close', () => this.onChannelClose(created));
      created.on('handler-error', (err: Error, eventName: string) =>
        this.log.error({ ...errorFields(err), eventName }, 'AMQP channel listener threw'),
      );
      if (this.options.setup) await this.options.setup(created);
      if (this.closing) {
        await closeQuietly(created);
        return;
      }
      if (this.model !== model) {
        // the connection was replaced during setup; the new one gets its own channel
        await closeQuietly(created);
        return;
      }
      this.channel = created;
      this.failures = 0;
      this.emit('ready', created);
    } catch (err) {
      this.failures += 1;
      this.log.error({ ...errorFields(err), attempt: this.failures }, 'AMQP channel setup failed');
      if (ch)
        await closeQuietly(ch); // 'close' schedules the retry
      else this.scheduleReopen();
    }
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private onChannelClose(ch: ConfirmChannel): void {
    if (this.channel === ch) {
      this.channel = undefined;
      this.emit('lost');
    }
    if (this.closing) return;
    this.scheduleReopen();
  }

  private scheduleReopen(): void {
    if (this.closing || !this.model || this.retryTimer) return;
    const model = this.model;
    const delayMs = backoffDelay(Math.max(1, this.failures), this.options.reconnect);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.model === model && !this.channel) void this.open(model);
    }, delayMs);
  }
}
