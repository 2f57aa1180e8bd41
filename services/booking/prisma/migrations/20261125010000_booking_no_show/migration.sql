-- AlterTable: what ended a cancelled booking (issue 18): 'cancellation' (under the policy) or 'no_show' (staff
-- marked the customer absent after the slot started). Null on bookings cancelled before this column existed.
ALTER TABLE "bookings" ADD COLUMN     "cancellation_kind" TEXT;
