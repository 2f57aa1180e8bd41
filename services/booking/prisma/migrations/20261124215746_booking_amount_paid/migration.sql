-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "amount_paid" DECIMAL(10,2);
