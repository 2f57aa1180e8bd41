-- Issue 18 item 4: pay an invoice online. The "Pay now" links of customer invoices (only the sha256 of each token is
-- kept) and card payments that pay an invoice rather than a booking.

-- CreateTable
CREATE TABLE "invoice_pay_links" (
    "token_hash" TEXT NOT NULL,
    "customer_invoice_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_pay_links_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "invoice_pay_links_customer_invoice_id_idx" ON "invoice_pay_links"("customer_invoice_id");

-- AddForeignKey
ALTER TABLE "invoice_pay_links" ADD CONSTRAINT "invoice_pay_links_customer_invoice_id_fkey" FOREIGN KEY ("customer_invoice_id") REFERENCES "customer_invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable: a payment is for a booking token (checkout) or for an invoice (pay link).
ALTER TABLE "payments" ALTER COLUMN "booking_token_hash" DROP NOT NULL;
ALTER TABLE "payments" ADD COLUMN "customer_invoice_id" UUID,
ADD COLUMN "surcharge_gst_amount" DECIMAL(10,2),
ADD COLUMN "duplicate_refund_status" TEXT,
ADD COLUMN "duplicate_refund_id" TEXT,
ADD COLUMN "duplicate_refund_error" TEXT;

-- One PaymentIntent per invoice and amount: concurrent "pay" requests end with the same payment row.
CREATE UNIQUE INDEX "payments_customer_invoice_id_total_amount_key" ON "payments"("customer_invoice_id", "total_amount");

ALTER TABLE "payments"
  ADD CONSTRAINT "payments_purpose_check" CHECK (("booking_token_hash" IS NULL) <> ("customer_invoice_id" IS NULL)),
  ADD CONSTRAINT "payments_duplicate_refund_status_check" CHECK ("duplicate_refund_status" IS NULL OR "duplicate_refund_status" IN ('requested', 'succeeded', 'failed'));
