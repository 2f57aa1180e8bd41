import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CustomerErased } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import {
  outbox,
  pdfAttachment,
  pdfText,
  seedJob,
  startTestBilling,
  technician,
  type TestBilling,
} from './helpers';

jest.setTimeout(120_000);

describe('invoice PDF (pdf worker) and email (local transport)', () => {
  let svc: TestBilling;
  let token: string;
  const api = () => svc.http();
  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) => req.set('x-identity-token', token);

  beforeAll(async () => {
    svc = await startTestBilling('billing-pdf');
    token = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  async function invoiceFor(over = {}) {
    const job = await seedJob(svc, over);
    const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
    expect(res.status).toBe(201);
    return { job, invoice: res.body.customerInvoice };
  }

  it('POST .../pdf answers {downloadUrl, filename, invoiceNumber}; the PDF has the business, customer, vehicle, job, items, totals, due date and payment methods', async () => {
    const { job, invoice } = await invoiceFor();
    const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      downloadUrl: `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
      filename: `${invoice.invoiceNumber}.pdf`,
      invoiceNumber: invoice.invoiceNumber,
    });

    const download = await asAdmin(api().get(res.body.downloadUrl)).responseType('blob');
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="${invoice.invoiceNumber}.pdf"`,
    );
    const pdf = download.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      invoice.invoiceNumber,
      'TAX INVOICE',
      'Perth Mobile Tyres Test',
      'ABN 12 345 678 901',
      '08 9000 0000',
      'Jane Citizen',
      'jane@example.com',
      '2018 Toyota Corolla',
      '1ABC234',
      `Job ${job.jobNumber}`,
      'New tyre 205/55R16 (Michelin)',
      // Generated invoices are tax inclusive (issue 12): the total is the job's price, GST one eleventh of it.
      'Amounts include GST',
      'Total (AUD)',
      '$805.80', // total
      'Includes GST',
      '$73.25', // GST: 805.80 ÷ 11
      'Amounts include GST: the total of $805.80 includes GST of $73.25.',
      'Visa, Mastercard, Amex, EFTPOS, PayID, Cash, Zip, Klarna',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Due date: \d{1,2} \w{3} \d{4}/);

    // The worker recorded where the PDF is; a second request for the unchanged invoice is answered at once.
    const again = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    expect(again.body.status).toBe('ready');
    expect((await svc.ctx.db.customerInvoice.findUnique({ where: { id: invoice.id } }))?.pdfPath).toBe(
      res.body.downloadUrl,
    );
  });

  it('a changed invoice needs a new PDF: the old one is never served for the new version', async () => {
    const { invoice } = await invoiceFor();
    await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/items`)).send({
      description: 'Valve stem',
      unitPrice: '12.50',
    });
    const stale = await asAdmin(api().get(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    expect(stale.status).toBe(404);
    await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    const fresh = await asAdmin(api().get(`/api/dashboard/customer-invoices/${invoice.id}/pdf`)).responseType(
      'blob',
    );
    const text = pdfText(fresh.body as Buffer);
    expect(text).toContain('Valve stem');
    expect(text).toContain('$818.30'); // 805.80 + 12.50
    expect(text).toContain('$74.39'); // GST included: 818.30 ÷ 11
  });

  it('an invoice without line items has no PDF', async () => {
    const job = await seedJob(svc);
    const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
      jobId: job.jobId,
      dueDate: '2026-12-31',
    });
    const res = await asAdmin(
      api().post(`/api/dashboard/customer-invoices/${created.body.customerInvoice.id}/pdf`),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please add at least one line item to the invoice.');
  });

  it('downloads are for authenticated staff who may see the invoice', async () => {
    const { invoice } = await invoiceFor();
    await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    expect((await api().get(`/api/dashboard/customer-invoices/${invoice.id}/pdf`)).status).toBe(401);
    const stranger = svc.token(technician());
    expect(
      (
        await api()
          .get(`/api/dashboard/customer-invoices/${invoice.id}/pdf`)
          .set('x-identity-token', stranger)
      ).status,
    ).toBe(404);
    expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/${randomUUID()}/pdf`))).status).toBe(
      404,
    );
  });

  it('the pdf queue uses deterministic job ids without ":" under the service prefix', async () => {
    const { invoice } = await invoiceFor();
    await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`));
    const job = await svc.ctx.queues.pdf.getJob(`invoice-pdf-${invoice.id}-r1`);
    expect(job?.id).toBe(`invoice-pdf-${invoice.id}-r1`);
    expect(job?.id).not.toContain(':');
    expect(svc.ctx.queues.pdf.opts.prefix).toBe(`${svc.prefix}billing`);
  });

  it('emails the invoice from the email job: local transport records the message (PDF attached), sets sentAt and status sent', async () => {
    const { invoice } = await invoiceFor({
      customer: { name: 'Ella Email', email: 'ella@example.com', phone: '0411111111' },
    });
    // A double click (same invoice version, same recipient) collapses into one email job.
    const [res, twin] = await Promise.all([
      asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send({}),
      asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send({}),
    ]);
    expect(res.status).toBe(200);
    expect(twin.body.deliveryId).toBe(res.body.deliveryId);
    expect(res.body).toMatchObject({
      success: true,
      to: 'ella@example.com',
      transport: 'local',
      delivered: false,
    });
    expect(res.body.message).toContain('local email log');
    expect(res.body.customerInvoice).toMatchObject({ status: 'sent', sentAt: expect.any(String) });

    const log = await asAdmin(api().get(`/api/dashboard/customer-invoices/${invoice.id}/emails`));
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({
      to: 'ella@example.com',
      transport: 'local',
      status: 'sent',
      subject: `Tax invoice ${invoice.invoiceNumber} from Perth Mobile Tyres Test`,
      attachments: [{ filename: `${invoice.invoiceNumber}.pdf`, contentType: 'application/pdf' }],
    });
    const raw = await asAdmin(
      api().get(`/api/dashboard/customer-invoices/${invoice.id}/emails/${log.body[0].id}/message`),
    );
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toContain('message/rfc822');
    const attachment = pdfAttachment(raw.text);
    expect(attachment?.filename).toBe(`${invoice.invoiceNumber}.pdf`);
    expect(pdfText(attachment!.content)).toContain(invoice.invoiceNumber);
    const adminLog = await asAdmin(api().get('/api/dashboard/customer-invoices/email-log'));
    expect(adminLog.body.some((d: { id: string }) => d.id === log.body[0].id)).toBe(true);

    const updated = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
      (e) => e.data.invoiceId === invoice.id,
    );
    expect(updated.at(-1)?.data).toMatchObject({ status: 'sent', changedFields: ['sentAt', 'status'] });

    // Sending again (another recipient) is a new email.
    const resend = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send({
      to: 'other@example.com',
    });
    expect(resend.body).toMatchObject({ success: true, to: 'other@example.com' });
    expect(await svc.ctx.db.emailDelivery.count({ where: { customerInvoiceId: invoice.id } })).toBe(2);
    expect(
      (await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send({ to: 'nope' }))
        .body.message,
    ).toBe('Valid email required');
  });

  it("an erased customer's invoice is kept but never emailed: 409 with the reason, to them or anyone; the PDF still builds", async () => {
    const { job, invoice } = await invoiceFor({
      customer: { name: 'Erin Erased', email: 'erin@example.com', phone: '0411111112' },
    });
    await svc.publish(CustomerErased, {
      customerId: randomUUID(),
      erasedAt: new Date().toISOString(),
      erasedByUserId: svc.admin.id,
      jobIds: [job.jobId],
      bookingIds: [randomUUID()],
    });
    await waitFor(() => svc.ctx.db.erasedJob.findUnique({ where: { jobId: job.jobId } }), {
      timeoutMs: 10_000,
      message: 'billing applied CustomerErased',
    });
    for (const body of [{}, { to: 'someone-else@example.com' }]) {
      const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send(
        body,
      );
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        "This invoice's customer was erased on request, so it cannot be emailed. Download the PDF to keep a copy.",
      );
    }
    expect(await svc.ctx.db.emailDelivery.count({ where: { customerInvoiceId: invoice.id } })).toBe(0);
    const pdf = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`)).send({});
    expect([200, 202]).toContain(pdf.status);
  });
});

// smtp-server is a devDependency in the lockfile; the test skips (and says so) if it is not installed.
let SMTPServer: typeof import('smtp-server').SMTPServer | undefined;
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ({ SMTPServer } = require('smtp-server') as typeof import('smtp-server'));
} catch {
  SMTPServer = undefined;
}
const describeSmtp = SMTPServer ? describe : describe.skip;

describeSmtp('invoice email over SMTP (real local SMTP receiver)', () => {
  let svc: TestBilling;
  let server: InstanceType<NonNullable<typeof SMTPServer>>;
  const received: { from: string; to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    server = new SMTPServer!({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    svc = await startTestBilling('billing-smtp', {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      EMAIL_FROM: 'Tyres Test <invoices@tyres.test>',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('delivers the invoice email with the PDF attached', async () => {
    const job = await seedJob(svc, {
      customer: { name: 'Sam Smtp', email: 'sam.smtp@example.com', phone: '0422222222' },
    });
    const token = svc.token(svc.admin);
    const gen = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${job.jobId}`)
      .set('x-identity-token', token);
    const invoice = gen.body.customerInvoice;
    const res = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/${invoice.id}/email`)
      .set('x-identity-token', token)
      .send({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      transport: 'smtp',
      delivered: true,
      to: 'sam.smtp@example.com',
      message: 'Invoice emailed to sam.smtp@example.com',
    });

    await waitFor(() => received.length > 0, { timeoutMs: 10_000 });
    const mail = received[0]!;
    expect(mail.from).toBe('invoices@tyres.test');
    expect(mail.to).toEqual(['sam.smtp@example.com']);
    expect(mail.raw).toContain(`Subject: Tax invoice ${invoice.invoiceNumber} from Perth Mobile Tyres Test`);
    const attachment = pdfAttachment(mail.raw);
    expect(attachment?.filename).toBe(`${invoice.invoiceNumber}.pdf`);
    const text = pdfText(attachment!.content);
    expect(text).toContain(invoice.invoiceNumber);
    expect(text).toContain('$805.80');
    expect(text).toContain('Amounts include GST');
    expect(mail.raw).toContain('Includes GST: $73.25');

    const delivery = await svc.ctx.db.emailDelivery.findFirst({ where: { customerInvoiceId: invoice.id } });
    expect(delivery).toMatchObject({ transport: 'smtp', status: 'sent', rawMessage: null });
    expect(delivery?.messageId).toEqual(expect.any(String));
    const stored = await svc.ctx.db.customerInvoice.findUnique({ where: { id: invoice.id } });
    expect(stored?.status).toBe('sent');
    expect(stored?.sentAt).toBeInstanceOf(Date);
  });
});
