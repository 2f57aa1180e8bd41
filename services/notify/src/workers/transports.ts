import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type TwilioRequestClient from 'twilio/lib/base/RequestClient';
import type { Logger } from '@tyres/service-kit';
import type { SentMessage } from '../app/delivery-attempts';
import { twilioCredentials, type Config } from '../config';
import { maskPhone } from '../domain/phone';

// --- SMS ---------------------------------------------------------------------------------------------------------

export interface SmsMessage {
  /** E.164. */
  to: string;
  body: string;
}

export type { SentMessage };

export interface SmsTransport {
  /** twilio: sent for real. local: recorded in the delivery log only, NOT sent. */
  readonly name: 'twilio' | 'local';
  send(message: SmsMessage): Promise<SentMessage>;
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** E.164 number or alphanumeric sender id. */
  from: string;
  /** Base URL replacing https://*.twilio.com (a local fake in tests). */
  apiBase?: string;
  timeoutMs: number;
}

/** Twilio's REST API (Messages.create). Loaded only when credentials are configured. */
export async function createTwilioTransport(settings: TwilioSettings): Promise<SmsTransport> {
  const twilio = (await import('twilio')).default;
  let httpClient: InstanceType<typeof twilio.RequestClient>;
  if (settings.apiBase) {
    const base = new URL(settings.apiBase);
    class RebasedRequestClient extends twilio.RequestClient {
      override request<TData>(opts: TwilioRequestClient.RequestOptions<TData>) {
        const uri = new URL(opts.uri);
        uri.protocol = base.protocol;
        uri.host = base.host;
        return super.request<TData>({ ...opts, uri: uri.toString() });
      }
    }
    httpClient = new RebasedRequestClient({ timeout: settings.timeoutMs, keepAlive: true });
  } else {
    httpClient = new twilio.RequestClient({ timeout: settings.timeoutMs, keepAlive: true });
  }
  // autoRetry off: retries belong to the queue (backoff, delivery log), not to a hidden loop in the SDK.
  const client = twilio(settings.accountSid, settings.authToken, { httpClient, autoRetry: false });
  return {
    name: 'twilio',
    async send(message) {
      const sent = await client.messages.create({ to: message.to, from: settings.from, body: message.body });
      return { providerMessageId: sent.sid ?? null };
    },
  };
}

/**
 * No Twilio credentials: the message goes through the same worker, attempt and log path, and is recorded in the
 * delivery log with transport "local". It is NOT delivered to the phone; the log line says so.
 */
export function createLocalSmsTransport(logger: Logger): SmsTransport {
  return {
    name: 'local',
    async send(message) {
      const id = `local-${randomUUID()}`;
      logger.info(
        { to: maskPhone(message.to), chars: message.body.length, providerMessageId: id },
        'SMS recorded by the local transport (NOT sent: no Twilio credentials)',
      );
      return { providerMessageId: id };
    },
  };
}

// --- Email -------------------------------------------------------------------------------------------------------

export interface OutgoingEmail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface EmailTransport {
  /** smtp: delivered to the configured server. local: recorded in the delivery log, NOT delivered. */
  readonly name: 'smtp' | 'local';
  send(email: OutgoingEmail): Promise<SentMessage>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set (smtp://user:pass@host:587, smtps://...:465); otherwise nodemailer's stream transport,
 * which builds the complete message without sending it, and the message is stored in the delivery log.
 *
 * nodemailer is loaded with the first message, not at start: a WebSocket-only replica (RUN_WORKERS=false) or one
 * that has sent nothing yet does not carry it.
 */
export function createEmailTransport(
  smtpUrl: string | undefined,
  timeoutMs: number,
  logger: Logger,
): EmailTransport {
  let transport: Promise<Transporter> | undefined;
  const load = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      smtpUrl
        ? nodemailer.createTransport({
            url: smtpUrl,
            connectionTimeout: timeoutMs,
            greetingTimeout: timeoutMs,
            socketTimeout: timeoutMs,
          })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const close = () => {
    void transport?.then((t) => t.close()).catch(() => undefined);
  };
  if (smtpUrl) {
    return {
      name: 'smtp',
      async send(email) {
        const info = await (await load()).sendMail(email);
        return { providerMessageId: info.messageId ?? null };
      },
      close,
    };
  }
  return {
    name: 'local',
    async send(email) {
      const info = await (await load()).sendMail(email);
      const message = (info as { message?: Buffer | string }).message;
      logger.info(
        { subject: email.subject, providerMessageId: info.messageId },
        'email recorded by the local transport (NOT sent: no SMTP_URL)',
      );
      return {
        providerMessageId: info.messageId ?? null,
        rawMessage: Buffer.isBuffer(message) ? message.toString('utf8') : String(message ?? ''),
      };
    },
    close,
  };
}

// --- Chosen from the environment -----------------------------------------------------------------------------------

export interface Transports {
  sms: SmsTransport;
  email: EmailTransport;
}

/** Twilio when its three settings are set, SMTP when SMTP_URL is; the local transports otherwise (said loudly). */
export async function transportsFromConfig(
  config: Config,
  logger: Logger,
  overrides: Partial<Transports> = {},
): Promise<Transports> {
  const twilio = twilioCredentials(config);
  const sms =
    overrides.sms ??
    (twilio
      ? await createTwilioTransport({
          ...twilio,
          ...(config.TWILIO_API_BASE ? { apiBase: config.TWILIO_API_BASE } : {}),
          timeoutMs: config.SEND_TIMEOUT_MS,
        })
      : createLocalSmsTransport(logger.child({ component: 'sms' })));
  const email =
    overrides.email ??
    createEmailTransport(config.SMTP_URL, config.SEND_TIMEOUT_MS, logger.child({ component: 'email' }));
  if (sms.name === 'local')
    logger.warn({}, 'SMS: no Twilio credentials; messages are recorded in the delivery log, NOT sent');
  if (email.name === 'local')
    logger.warn({}, 'Email: no SMTP_URL; messages are recorded in the delivery log, NOT sent');
  return { sms, email };
}
