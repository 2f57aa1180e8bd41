-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "requested_by" UUID;
