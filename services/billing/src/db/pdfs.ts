import type { Db } from './client';
import type { CustomerInvoicePdf } from './generated/client';

/** Where staff download an invoice's PDF (through the gateway; staff only). */
export const pdfDownloadPath = (invoiceId: string) => `/api/dashboard/customer-invoices/${invoiceId}/pdf`;

export class PdfStore {
  constructor(private readonly db: Db) {}

  get(invoiceId: string): Promise<CustomerInvoicePdf | null> {
    return this.db.customerInvoicePdf.findUnique({ where: { customerInvoiceId: invoiceId } });
  }

  /** The PDF of this exact invoice revision, if built. */
  async current(invoiceId: string, revision: number): Promise<CustomerInvoicePdf | undefined> {
    const pdf = await this.get(invoiceId);
    return pdf && pdf.revision === revision ? pdf : undefined;
  }

  async revisionOf(invoiceId: string): Promise<number | undefined> {
    const row = await this.db.customerInvoicePdf.findUnique({
      where: { customerInvoiceId: invoiceId },
      select: { revision: true },
    });
    return row?.revision;
  }

  /**
   * Stores a PDF unless a newer revision is already there (workers can finish out of order), and records the
   * download path on the invoice without touching its revision or updatedAt (a PDF is not an invoice change).
   * Returns false when the invoice no longer exists.
   */
  async save(invoiceId: string, revision: number, filename: string, content: Buffer): Promise<boolean> {
    try {
      await this.db.$executeRaw`
        INSERT INTO "billing"."customer_invoice_pdfs" ("customer_invoice_id", "revision", "filename", "content", "size_bytes", "generated_at")
        VALUES (${invoiceId}::uuid, ${revision}, ${filename}, ${content}, ${content.length}, now())
        ON CONFLICT ("customer_invoice_id") DO UPDATE
          SET "revision" = EXCLUDED."revision", "filename" = EXCLUDED."filename", "content" = EXCLUDED."content",
              "size_bytes" = EXCLUDED."size_bytes", "generated_at" = EXCLUDED."generated_at"
          WHERE "customer_invoice_pdfs"."revision" <= EXCLUDED."revision"`;
    } catch (err) {
      if (isForeignKeyViolation(err)) return false;
      throw err;
    }
    await this.db.$executeRaw`
      UPDATE "billing"."customer_invoices" SET "pdf_path" = ${pdfDownloadPath(invoiceId)}
      WHERE "id" = ${invoiceId}::uuid AND "pdf_path" IS DISTINCT FROM ${pdfDownloadPath(invoiceId)}`;
    return true;
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } };
  return e?.code === 'P2003' || e?.meta?.driverAdapterError?.cause?.originalCode === '23503';
}
