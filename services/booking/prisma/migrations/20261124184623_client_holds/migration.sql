-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "client_address" TEXT;

-- CreateIndex
CREATE INDEX "bookings_client_address_expires_at_idx" ON "bookings"("client_address", "expires_at");
