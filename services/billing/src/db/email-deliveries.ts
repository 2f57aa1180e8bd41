import type { Db } from './client';
import type { EmailDelivery, Prisma } from './generated/client';

export interface BeginDelivery {
  jobKey: string;
  customerInvoiceId: string;
  invoiceNumber: string;
  to: string;
  subject: string;
  transport: 'smtp' | 'local';
  requestedBy: string | null;
}

/** The email log: every invoice email, sent over SMTP or recorded by the local transport. */
export class EmailDeliveryRepository {
  constructor(private readonly db: Db) {}

  /** One row per email job: a retried job finds its row (and skips sending when it already went out). */
  begin(input: BeginDelivery): Promise<EmailDelivery> {
    return this.db.emailDelivery.upsert({
      where: { jobKey: input.jobKey },
      create: { ...input, status: 'sending' },
      update: {},
    });
  }

  markSent(
    id: string,
    sent: { messageId: string | null; raw?: string; attachments: Prisma.InputJsonValue; at: Date },
  ) {
    return this.db.emailDelivery.update({
      where: { id },
      data: {
        status: 'sent',
        messageId: sent.messageId,
        rawMessage: sent.raw ?? null,
        attachments: sent.attachments,
        sentAt: sent.at,
        error: null,
      },
    });
  }

  markFailed(id: string, error: string) {
    return this.db.emailDelivery.update({
      where: { id },
      data: { status: 'failed', error: error.slice(0, 2000) },
    });
  }

  listForInvoice(invoiceId: string): Promise<EmailDelivery[]> {
    return this.db.emailDelivery.findMany({
      where: { customerInvoiceId: invoiceId },
      orderBy: { createdAt: 'desc' },
    });
  }

  recent(limit: number): Promise<EmailDelivery[]> {
    return this.db.emailDelivery.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
  }

  get(id: string): Promise<EmailDelivery | null> {
    return this.db.emailDelivery.findUnique({ where: { id } });
  }
}
