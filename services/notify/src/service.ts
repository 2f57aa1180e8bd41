import {
  createRedis,
  createServiceRuntime,
  dependencyCheck,
  type Logger,
  type ServiceRuntime,
} from '@tyres/service-kit';
import { BookingLifecycle } from './app/booking-lifecycle';
import { DeliveryLog } from './app/delivery-log';
import { DeliveryRequests } from './app/delivery-requests';
import { LiveNotifications } from './app/live-notifications';
import { Confirmations } from './app/confirmations';
import { ReviewRequests } from './app/review-requests';
import { publicSiteUrl, type Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { BookingRepository } from './db/bookings';
import { ConfirmationRepository } from './db/confirmations';
import { ReviewRepository } from './db/reviews';
import { DeliveryRepository } from './db/deliveries';
import { notifyHandlers } from './events/handlers';
import { createLiveFeed, type LiveFeed } from './events/live-feed';
import { subscribeNotify } from './events/subscriptions';
import { erasureHandlers } from './events/erasure-handlers';
import { CustomerErasure } from './app/erasure';
import { notifyHttp } from './http/app';
import { createNotifyMetrics } from './metrics';
import { startDeliveryWorkers, type DeliveryWorkers, type ProcessorDeps } from './workers/delivery-worker';
import { createQueues, type NotifyQueues } from './workers/queues';
import { startReminderWorker } from './workers/reminder-worker';
import { transportsFromConfig, type EmailTransport, type SmsTransport } from './workers/transports';
import { NotificationHub } from './ws/hub';
import { createUserMessages, userMessagesChannel, type UserMessages } from './ws/user-messages';

export interface NotifyOptions {
  /** Replace the transports chosen from the environment (tests). */
  smsTransport?: SmsTransport;
  emailTransport?: EmailTransport;
  /** Called after every send attempt (tests, diagnostics). */
  onAttempt?: ProcessorDeps['onAttempt'];
  /** The clock quiet hours and reminders are planned by (tests pin the Perth time of day). */
  now?: () => Date;
}

export interface NotifyService {
  runtime: ServiceRuntime<Db>;
  hub: NotificationHub;
  liveFeed: LiveFeed;
  userMessages: UserMessages;
  queues: NotifyQueues;
  deliveries: DeliveryRepository;
  bookings: BookingRepository;
  lifecycle: BookingLifecycle;
  confirmations: Confirmations;
  reviews: ReviewRequests;
  transports: { sms: SmsTransport['name']; email: EmailTransport['name'] };
}

/**
 * The notify service's composition, in plain order: runtime → transports, hub, queues, fan-out → repository → use
 * cases → subscriptions → listen (workers in `start`). main.ts runs it; the integration tests and the benchmark
 * start it on port 0.
 *
 *   durable `notify` queue (once per event)      BookingCreated, SmsRequested, EmailRequested -> DeliveryRequests
 *                                                Booking* and Job* changes -> BookingLifecycle (record, reminder,
 *                                                reschedule and cancellation notices)
 *   live feed (every replica, every event)       BookingCreated, Booking{Rescheduled,Cancelled,Updated}, JobAssigned,
 *                                                UserStatusChanged -> LiveNotifications
 *   BullMQ `reminders` (delayed, 5 pm the day before) -> BookingLifecycle.remind -> sms/email queues
 *   user messages (Redis pub/sub, every replica) sms_delivery to the user who asked for the SMS
 *   BullMQ workers                               sms (Twilio | local), email (SMTP | local) -> DeliveryAttempts
 *   HTTP                                         /ws/notifications (upgrade), delivery log, bull-board
 *
 * Readiness is the runtime's: this process can serve its own requests (its database). The live feed, the
 * user-message subscription and the workers' Redis connections are dependencies: shown in /readyz as "ready
 * (degraded)" and exported as `dependency_up`, never a reason to pull the pod (issue 15).
 */
export async function startNotify(
  config: Config,
  logger: Logger,
  options: NotifyOptions = {},
): Promise<NotifyService> {
  const db = createDb(config.DATABASE_URL);
  const runtime = createServiceRuntime({ name: 'notify', schema: DB_SCHEMA, config, logger, db });
  const { readiness } = runtime;
  const metrics = createNotifyMetrics();
  const transports = await transportsFromConfig(config, logger, {
    ...(options.smsTransport ? { sms: options.smsTransport } : {}),
    ...(options.emailTransport ? { email: options.emailTransport } : {}),
  });

  // Transports and fan-out: this replica's sockets, the delivery queues, the live feed, the user-message channel.
  const hub = new NotificationHub({
    logger,
    heartbeatMs: config.WS_HEARTBEAT_MS,
    maxMessagesPer10s: config.WS_MAX_MESSAGES_PER_10S,
    maxLifetimeMs: config.WS_MAX_LIFETIME_MS,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    metrics: metrics.hub,
  });
  const queues = createQueues(runtime.redis, {
    redisPrefix: config.REDIS_PREFIX,
    smsAttempts: config.SMS_ATTEMPTS,
    smsBackoffMs: config.SMS_BACKOFF_MS,
    emailAttempts: config.EMAIL_ATTEMPTS,
    emailBackoffMs: config.EMAIL_BACKOFF_MS,
  });
  const liveFeed = createLiveFeed({
    connection: runtime.bus.connection,
    prefix: config.EVENT_PREFIX,
    logger,
    metrics: metrics.liveFeed,
  });
  const userMessages = createUserMessages({
    publisher: runtime.redis,
    subscriber: createRedis(config.REDIS_URL, 'worker'),
    channel: userMessagesChannel(config.REDIS_PREFIX),
    deliver: (d) => hub.deliver(d),
    logger,
  });
  readiness.liveFeed = dependencyCheck(async () => {
    if (!liveFeed.isReady()) throw new Error('live notification feed not consuming (RabbitMQ)');
  });
  readiness.userMessages = dependencyCheck(async () => {
    if (!userMessages.isReady()) throw new Error('not subscribed to user messages (Redis)');
  });

  const deliveries = new DeliveryRepository(db);
  const requests = new DeliveryRequests({
    deliveries,
    queues,
    business: { name: config.BUSINESS_NAME, phone: config.BUSINESS_PHONE },
    smsAttempts: config.SMS_ATTEMPTS,
    emailAttempts: config.EMAIL_ATTEMPTS,
    quietWindow: config.QUIET_HOURS,
    ...(options.now ? { now: options.now } : {}),
  });
  const bookings = new BookingRepository(db);
  const lifecycle = new BookingLifecycle({
    bookings,
    queues,
    requests,
    business: { name: config.BUSINESS_NAME, phone: config.BUSINESS_PHONE },
    smsAttempts: config.SMS_ATTEMPTS,
    emailAttempts: config.EMAIL_ATTEMPTS,
    logger,
    ...(options.now ? { now: options.now } : {}),
  });
  const business = { name: config.BUSINESS_NAME, phone: config.BUSINESS_PHONE };
  const confirmations = new Confirmations({
    confirmations: new ConfirmationRepository(db),
    deliveries,
    requests,
    queues,
    business,
    smsAttempts: config.SMS_ATTEMPTS,
    emailAttempts: config.EMAIL_ATTEMPTS,
    linkWaitMs: config.CONFIRMATION_LINK_WAIT_MS,
    logger,
    ...(options.now ? { now: options.now } : {}),
  });
  const reviews = new ReviewRequests({
    reviews: new ReviewRepository(db),
    deliveries,
    requests,
    queues,
    business,
    emailAttempts: config.EMAIL_ATTEMPTS,
    reviewUrl: config.REVIEW_URL,
    siteUrl: publicSiteUrl(config),
    logger,
    ...(options.now ? { now: options.now } : {}),
  });
  const live = new LiveNotifications({
    dashboards: hub,
    userMessages,
    audience: (jobId) => bookings.get(jobId),
  });
  const log = new DeliveryLog({
    deliveries,
    queues,
    connections: () => hub.size,
    transports: { sms: transports.sms.name, email: transports.email.name },
  });

  subscribeNotify(runtime.bus, liveFeed, {
    ...notifyHandlers({ requests, lifecycle, live, confirmations, reviews }),
    erasure: erasureHandlers({ db, erasure: new CustomerErasure({ db, queues, logger }) }),
  });

  const http = notifyHttp({
    logger,
    readiness,
    identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
    metrics,
    log,
    reviews,
    queues: [queues.sms, queues.email, queues.reminders],
    hub,
    ws: { maxPayloadBytes: config.WS_MAX_PAYLOAD_BYTES, maxConnections: config.WS_MAX_CONNECTIONS },
  });
  const service = await runtime.listen(http, {
    start: async () => {
      hub.start();
      liveFeed.start();
      // In the background like the runtime's consumers: a Redis outage never blocks boot (readiness shows it).
      userMessages
        .start()
        .catch((err: unknown) =>
          logger.warn({ err: (err as Error).message }, 'user messages not subscribed yet (Redis)'),
        );
      let workers: DeliveryWorkers | undefined;
      if (config.RUN_WORKERS) {
        const running = startDeliveryWorkers({
          redisUrl: config.REDIS_URL,
          redisPrefix: config.REDIS_PREFIX,
          transports,
          email: {
            from: config.EMAIL_FROM,
            ...(config.EMAIL_REPLY_TO ? { replyTo: config.EMAIL_REPLY_TO } : {}),
          },
          sms: { concurrency: config.SMS_CONCURRENCY, backoffMs: config.SMS_BACKOFF_MS },
          emailQueue: { concurrency: config.EMAIL_CONCURRENCY, backoffMs: config.EMAIL_BACKOFF_MS },
          sendTimeoutMs: config.SEND_TIMEOUT_MS,
          logger,
          deliveries,
          onAttempt: (outcome, delivery) => {
            metrics.attempt(delivery.channel, outcome);
            options.onAttempt?.(outcome, delivery);
          },
          // The staff member who asked for an SMS hears how it ended, on whichever replica they are connected.
          onFinished: (delivery, result) => live.deliveryFinished(delivery, result),
        });
        const reminders = startReminderWorker({
          redisUrl: config.REDIS_URL,
          redisPrefix: config.REDIS_PREFIX,
          lifecycle,
          confirmations,
          logger,
        });
        workers = {
          isReady: () => running.isReady() && reminders.isReady(),
          close: async () => {
            await Promise.allSettled([running.close(), reminders.close()]);
          },
        };
        readiness.deliveryWorkers = dependencyCheck(async () => {
          if (!running.isReady() || !reminders.isReady())
            throw new Error('delivery workers not connected (Redis)');
        });
      }
      // Runs before the runtime's own steps (readiness, HTTP drain, consumers, connections): refuse new sockets,
      // tell the open ones to reconnect elsewhere, stop the live feed, let the workers finish the jobs they hold.
      runtime.lifecycle.onShutdown('websockets and workers', async () => {
        http.setDraining();
        await hub.close();
        await liveFeed.close();
        await workers?.close();
        // After the workers: a job finishing during the drain still publishes its outcome to the other replicas.
        await userMessages.close();
        transports.email.close();
      });
    },
  });
  // After the consumers have stopped (they add jobs) and the shared Redis client is closed: release the queues.
  service.lifecycle.onShutdown('queues', () => queues.close());

  return {
    runtime: service,
    hub,
    liveFeed,
    userMessages,
    queues,
    deliveries,
    bookings,
    lifecycle,
    confirmations,
    reviews,
    transports: { sms: transports.sms.name, email: transports.email.name },
  };
}
