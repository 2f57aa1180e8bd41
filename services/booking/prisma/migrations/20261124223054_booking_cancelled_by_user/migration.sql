-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "cancelled_by_user_id" UUID;
