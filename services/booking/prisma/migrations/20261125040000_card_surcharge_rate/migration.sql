-- Issue 19 item 5: the card surcharge rate is on the price list, versioned with the other fees (a percentage with
-- two places: 1.70 = 1.70%). Every existing version (the seed and any admin change) was made while the rate was the
-- fixed 1.70%, so they keep it. 0 to 5%: the RBA's rule is that a surcharge must not exceed the cost of acceptance.
ALTER TABLE "price_fee_versions" ADD COLUMN "card_surcharge_rate" DECIMAL(4,2) NOT NULL DEFAULT 1.70;
ALTER TABLE "price_fee_versions" ADD CONSTRAINT "price_fee_versions_card_surcharge_rate"
  CHECK ("card_surcharge_rate" >= 0 AND "card_surcharge_rate" <= 5);

-- The rate a prepaid quote showed the customer (the rate in force at quote time): billing's checkout charges it,
-- whatever the list says by the time the customer pays. NULL on onsite bookings and on quotes made before this
-- column, which were all given at 1.70%.
ALTER TABLE "bookings" ADD COLUMN "card_surcharge_rate" DECIMAL(4,2);
