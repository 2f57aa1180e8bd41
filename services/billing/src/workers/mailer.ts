import nodemailer from 'nodemailer';

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
}

export interface SentEmail {
  messageId: string | null;
  /** The RFC 822 message: kept for the local transport (what would have been sent), absent for SMTP. */
  raw?: string;
}

export interface Mailer {
  /** smtp: delivered to the configured server. local: recorded in the email log, NOT delivered. */
  readonly transport: 'smtp' | 'local';
  send(email: OutgoingEmail): Promise<SentEmail>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set (smtp://user:pass@host:587, smtps://...:465); otherwise nodemailer's stream transport,
 * which builds the real message without sending it: the message is stored in the email log for staff to read.
 */
export function createMailer(smtpUrl: string | undefined): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      transport: 'smtp',
      async send(email) {
        const info = await transport.sendMail(email);
        return { messageId: info.messageId ?? null };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'local',
    async send(email) {
      const info = await transport.sendMail(email);
      const message = (info as { message?: Buffer | string }).message;
      return {
        messageId: info.messageId ?? null,
        raw: Buffer.isBuffer(message) ? message.toString('utf8') : String(message ?? ''),
      };
    },
    close: () => transport.close(),
  };
}
