import {
  createRedis,
  createServiceApp,
  dependencyCheck,
  identityMiddleware,
  startService,
  type Logger,
  type ServiceRuntime,
} from '@tyres/service-kit';
import { BookingCreated, EmailRequested, JobAssigned, SmsRequested, UserStatusChanged } from '@tyres/events';
import { twilioCredentials, type Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { DeliveryRepository } from './db/deliveries';
import {
  deliveriesForAssignment,
  deliveriesForBooking,
  smsDeliveryNotice,
  type Delivery,
} from './domain/notifications';
import { onBookingCreated, onEmailRequested, onSmsRequested, type HandlerDeps } from './events/handlers';
import { createLiveFeed, type LiveFeed } from './events/live-feed';
import { mountRoutes } from './http/routes';
import { createNotifyMetrics } from './metrics';
import {
  deliveryProcessor,
  emailSender,
  smsSender,
  startDeliveryWorker,
  type ProcessorDeps,
} from './workers/delivery-worker';
import { bullPrefix, createQueues, EMAIL_QUEUE, SMS_QUEUE, type NotifyQueues } from './workers/queues';
import {
  createEmailTransport,
  createLocalSmsTransport,
  createTwilioTransport,
  type EmailTransport,
  type SmsTransport,
} from './workers/transports';
import { CLOSE, NotificationHub } from './ws/hub';
import { createUpgradeHandler } from './ws/upgrade';
import { createUserMessages, userMessagesChannel, type UserMessages } from './ws/user-messages';

export interface NotifyOptions {
  /** Replace the transports chosen from the environment (tests). */
  smsTransport?: SmsTransport;
  emailTransport?: EmailTransport;
  /** Called after every send attempt (tests, diagnostics). */
  onAttempt?: ProcessorDeps['onAttempt'];
}

export interface NotifyService {
  runtime: ServiceRuntime<Db>;
  hub: NotificationHub;
  liveFeed: LiveFeed;
  userMessages: UserMessages;
  queues: NotifyQueues;
  deliveries: DeliveryRepository;
  transports: { sms: SmsTransport['name']; email: EmailTransport['name'] };
}

/**
 * Composition of the notify service (main.ts runs it; integration tests and the benchmark start it on port 0):
 *
 *   durable `notify` queue (competing consumers, once per event)   BookingCreated -> confirmation email
 *                                                                  SmsRequested   -> sms queue
 *                                                                  EmailRequested -> email queue
 *   live feed (exclusive queue per replica, every event)           BookingCreated -> new_booking to admins
 *                                                                  JobAssigned    -> new_booking + job_assigned to the technician
 *                                                                  UserStatusChanged (deactivated) -> close their sockets
 *   user messages (Redis pub/sub, every replica)                   sms_delivery to the user who asked for the SMS
 *   BullMQ workers                                                 sms (Twilio | local), email (SMTP | local)
 *   HTTP                                                           /ws/notifications (upgrade), delivery log, bull-board
 */
export async function startNotify(
  config: Config,
  logger: Logger,
  options: NotifyOptions = {},
): Promise<NotifyService> {
  const db = createDb(config.DATABASE_URL);
  const deliveries = new DeliveryRepository(db);
  const metrics = createNotifyMetrics();
  const twilio = twilioCredentials(config);
  const smsTransport =
    options.smsTransport ??
    (twilio
      ? await createTwilioTransport({
          ...twilio,
          ...(config.TWILIO_API_BASE ? { apiBase: config.TWILIO_API_BASE } : {}),
          timeoutMs: config.SEND_TIMEOUT_MS,
        })
      : createLocalSmsTransport(logger.child({ component: 'sms' })));
  const emailTransport =
    options.emailTransport ??
    createEmailTransport(config.SMTP_URL, config.SEND_TIMEOUT_MS, logger.child({ component: 'email' }));
  if (smsTransport.name === 'local')
    logger.warn({}, 'SMS: no Twilio credentials; messages are recorded in the delivery log, NOT sent');
  if (emailTransport.name === 'local')
    logger.warn({}, 'Email: no SMTP_URL; messages are recorded in the delivery log, NOT sent');

  const hub = new NotificationHub({
    logger,
    heartbeatMs: config.WS_HEARTBEAT_MS,
    maxMessagesPer10s: config.WS_MAX_MESSAGES_PER_10S,
    maxLifetimeMs: config.WS_MAX_LIFETIME_MS,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    metrics: metrics.hub,
  });
  const deliverAll = (list: Delivery[]) => {
    for (const d of list) hub.deliver(d);
  };

  let queues: NotifyQueues | undefined;
  let liveFeed: LiveFeed | undefined;
  let userMessages: UserMessages | undefined;
  let draining = false;
  let setAppDraining = () => {};

  const runtime = await startService({
    name: 'notify',
    schema: DB_SCHEMA,
    config,
    logger,
    db,
    subscribe: ({ bus, redis, readiness }) => {
      queues = createQueues(redis, {
        redisPrefix: config.REDIS_PREFIX,
        smsAttempts: config.SMS_ATTEMPTS,
        smsBackoffMs: config.SMS_BACKOFF_MS,
        emailAttempts: config.EMAIL_ATTEMPTS,
        emailBackoffMs: config.EMAIL_BACKOFF_MS,
      });
      const deps: HandlerDeps = {
        deliveries,
        queues,
        business: { name: config.BUSINESS_NAME, phone: config.BUSINESS_PHONE },
        smsAttempts: config.SMS_ATTEMPTS,
        emailAttempts: config.EMAIL_ATTEMPTS,
      };
      // Work done once per event, by whichever replica takes it from the durable `notify` queue.
      bus.subscribe(BookingCreated, onBookingCreated(deps));
      bus.subscribe(SmsRequested, onSmsRequested(deps));
      bus.subscribe(EmailRequested, onEmailRequested(deps));

      // Live notifications: every replica, for its own sockets.
      liveFeed = createLiveFeed({
        connection: bus.connection,
        prefix: config.EVENT_PREFIX,
        logger,
        metrics: metrics.liveFeed,
      });
      liveFeed.on(BookingCreated, (event) => deliverAll(deliveriesForBooking(event.data)));
      liveFeed.on(JobAssigned, (event) => deliverAll(deliveriesForAssignment(event.data)));
      liveFeed.on(UserStatusChanged, (event) => {
        if (!event.data.isActive)
          hub.disconnectUser(event.data.userId, CLOSE.deactivated, 'Account deactivated');
      });
      const feed = liveFeed;
      readiness.liveFeed = async () => {
        if (!feed.isReady()) throw new Error('live notification feed not consuming');
      };

      // Messages notify itself produces for one user (the outcome of an SMS they asked for): every replica.
      userMessages = createUserMessages({
        publisher: redis,
        subscriber: createRedis(config.REDIS_URL, 'worker'),
        channel: userMessagesChannel(config.REDIS_PREFIX),
        deliver: (d) => hub.deliver(d),
        logger,
      });
      const own = userMessages;
      readiness.userMessages = dependencyCheck(async () => {
        if (!own.isReady()) throw new Error('not subscribed to user messages (Redis)');
      });
    },
    http: ({ readiness }) => {
      const svc = createServiceApp({ name: 'notify', logger, readiness });
      metrics.register(svc.metrics.registry);
      svc.app.use(identityMiddleware(config.INTERNAL_JWT_PUBLIC_KEY));
      const q = queues as NotifyQueues;
      mountRoutes(svc.app, {
        deliveries,
        queues: [q.sms, q.email],
        status: async () => ({
          transports: { sms: smsTransport.name, email: emailTransport.name },
          websocket: { connections: hub.size },
          queues: {
            sms: await q.sms.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
            email: await q.email.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
          },
        }),
      });
      const app = svc.finalize();
      const onUpgrade = createUpgradeHandler({
        hub,
        logger,
        identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        maxPayloadBytes: config.WS_MAX_PAYLOAD_BYTES,
        maxConnections: config.WS_MAX_CONNECTIONS,
        isDraining: () => draining,
        onRejected: metrics.upgradeRejected,
      });
      setAppDraining = () => {
        draining = true;
        svc.setDraining();
      };
      return { app, setDraining: () => setAppDraining(), onUpgrade };
    },
    start: async ({ lifecycle }) => {
      hub.start();
      liveFeed?.start();
      await userMessages?.start();
      const workers: { close(): Promise<void> }[] = [];
      if (config.RUN_WORKERS) {
        const prefix = bullPrefix(config.REDIS_PREFIX);
        const processor = (sender: ProcessorDeps['sender'], backoffMs: number) =>
          deliveryProcessor({
            deliveries,
            sender,
            logger,
            backoffMs,
            sendTimeoutMs: config.SEND_TIMEOUT_MS,
            onAttempt: (outcome, delivery) => {
              metrics.attempt(delivery.channel, outcome);
              options.onAttempt?.(outcome, delivery);
            },
            // The staff member who asked for an SMS hears how it ended, on whichever replica they are connected.
            onFinished: (delivery, result) => {
              const notice = smsDeliveryNotice(delivery, result);
              if (notice?.to === 'user') void userMessages?.publish(notice);
            },
          });
        const worker = (
          queue: string,
          concurrency: number,
          sender: ProcessorDeps['sender'],
          backoffMs: number,
        ) =>
          startDeliveryWorker(
            { queue, prefix, concurrency, connection: createRedis(config.REDIS_URL, 'worker'), logger },
            processor(sender, backoffMs),
          );
        workers.push(
          worker(SMS_QUEUE, config.SMS_CONCURRENCY, smsSender(smsTransport), config.SMS_BACKOFF_MS),
        );
        workers.push(
          worker(
            EMAIL_QUEUE,
            config.EMAIL_CONCURRENCY,
            emailSender(emailTransport, {
              from: config.EMAIL_FROM,
              ...(config.EMAIL_REPLY_TO ? { replyTo: config.EMAIL_REPLY_TO } : {}),
            }),
            config.EMAIL_BACKOFF_MS,
          ),
        );
      }
      // Runs before the runtime's own steps (readiness, HTTP drain, consumers, connections): refuse new sockets, tell
      // the open ones to reconnect elsewhere, stop the live feed, let the workers finish the jobs they hold.
      lifecycle.onShutdown('websockets and workers', async () => {
        setAppDraining();
        await hub.close();
        await liveFeed?.close();
        await Promise.allSettled(workers.map((w) => w.close()));
        // After the workers: a job finishing during the drain still publishes its outcome to the other replicas.
        await userMessages?.close();
        emailTransport.close();
      });
    },
  });
  // After the consumers have stopped (they add jobs) and the shared Redis client is closed: release the queues.
  runtime.lifecycle.onShutdown('queues', () => queues?.close());

  return {
    runtime,
    hub,
    liveFeed: liveFeed as LiveFeed,
    userMessages: userMessages as UserMessages,
    queues: queues as NotifyQueues,
    deliveries,
    transports: { sms: smsTransport.name, email: emailTransport.name },
  };
}
