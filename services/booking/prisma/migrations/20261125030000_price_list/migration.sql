-- Issue 19 item 5: the price list, versioned. The list in force at a moment is, per fee schedule and per tyre, the
-- latest version with effective_from <= that moment (ties: the later created_at). Cancelled (scheduled, never in
-- force) versions keep their row with cancelled_at. Quotes read the list in force; bookings keep what they were
-- quoted (bookings.total, the BookingCreated customerValue), so no change here ever touches an existing booking.

-- The fee schedule: every fee of one version on one row.
CREATE TABLE "price_fee_versions" (
    "id" UUID NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "callout_fee" DECIMAL(10,2) NOT NULL,
    "puncture_repair" DECIMAL(10,2) NOT NULL,
    "fitting_per_tyre" DECIMAL(10,2) NOT NULL,
    "balancing_per_tyre" DECIMAL(10,2) NOT NULL,
    "prepaid_discount" DECIMAL(10,2) NOT NULL,
    "reason" TEXT NOT NULL,
    "created_by" UUID,
    "created_by_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelled_at" TIMESTAMPTZ(3),

    CONSTRAINT "price_fee_versions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "price_fee_versions_effective_from_idx" ON "price_fee_versions" ("effective_from");

-- A tyre's price and stock from effective_from. A tyre with no version in force uses its tyre_stock_pricing row
-- (retail_price, is_active): the seeded catalogue is its own first version.
CREATE TABLE "tyre_price_versions" (
    "id" UUID NOT NULL,
    "tyre_id" UUID NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "retail_price" DECIMAL(10,2) NOT NULL,
    "in_stock" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL,
    "created_by" UUID,
    "created_by_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelled_at" TIMESTAMPTZ(3),

    CONSTRAINT "tyre_price_versions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "tyre_price_versions_tyre_id_effective_from_idx" ON "tyre_price_versions" ("tyre_id", "effective_from");
ALTER TABLE "tyre_price_versions" ADD CONSTRAINT "tyre_price_versions_tyre_id_fkey" FOREIGN KEY ("tyre_id") REFERENCES "tyre_stock_pricing"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every change to the price list: who, when, why, before and after.
CREATE TABLE "price_list_audit" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" UUID,
    "actor_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject_type" TEXT NOT NULL,
    "subject_id" UUID NOT NULL,
    "effective_from" TIMESTAMPTZ(3),
    "reason" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "price_list_audit_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "price_list_audit_at_idx" ON "price_list_audit" ("at");

-- Hand-written: money is never negative.
ALTER TABLE "price_fee_versions" ADD CONSTRAINT "price_fee_versions_non_negative" CHECK (
  "callout_fee" >= 0 AND "puncture_repair" >= 0 AND "fitting_per_tyre" >= 0 AND "balancing_per_tyre" >= 0
  AND "prepaid_discount" >= 0 AND "prepaid_discount" <= "callout_fee");
ALTER TABLE "tyre_price_versions" ADD CONSTRAINT "tyre_price_versions_positive" CHECK ("retail_price" > 0);

-- Seed: today's constants (spec section 9, the kernel's PRICE_LIST), in force since long before any booking, so
-- nothing changes for customers until an admin edits.
INSERT INTO "price_fee_versions" ("id", "effective_from", "callout_fee", "puncture_repair", "fitting_per_tyre",
    "balancing_per_tyre", "prepaid_discount", "reason", "created_by", "created_by_name")
VALUES (md5('price-fees|seed')::uuid, '2000-01-01T00:00:00+08:00', 89.80, 40.00, 25.00, 15.00, 30.00,
    'Seeded from the product spec''s price list (section 9)', NULL, 'system')
ON CONFLICT ("id") DO NOTHING;
