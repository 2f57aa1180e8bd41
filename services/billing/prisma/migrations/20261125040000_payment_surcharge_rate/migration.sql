-- Issue 19 item 5: the card surcharge rate is editable on booking's price list. Every payment records the rate it
-- was charged at (percent, 2 places: 1.70), the rate in force when the amount was shown to the customer (a prepaid
-- quote's rate; for an invoice, the rate when its payment intent was made). The webhook's surcharge line uses this
-- stored rate, never today's. NULL: a payment from before the rate was editable, all at 1.70%.
ALTER TABLE "payments" ADD COLUMN "surcharge_rate" DECIMAL(4,2);
ALTER TABLE "payments" ADD CONSTRAINT "payments_surcharge_rate_range"
  CHECK ("surcharge_rate" IS NULL OR ("surcharge_rate" >= 0 AND "surcharge_rate" <= 5));
