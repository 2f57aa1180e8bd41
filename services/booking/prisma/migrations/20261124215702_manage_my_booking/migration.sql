-- AlterEnum
ALTER TYPE "BookingStatus" ADD VALUE 'cancelled';

-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "cancellation_band" TEXT,
ADD COLUMN     "cancellation_fee" DECIMAL(10,2),
ADD COLUMN     "cancellation_reason" TEXT,
ADD COLUMN     "cancelled_at" TIMESTAMPTZ(3),
ADD COLUMN     "cancelled_by" TEXT,
ADD COLUMN     "fee_waived" BOOLEAN,
ADD COLUMN     "job_status" TEXT,
ADD COLUMN     "refund_amount" DECIMAL(10,2),
ADD COLUMN     "refund_percent" INTEGER;

-- CreateTable
CREATE TABLE "manage_tokens" (
    "id" UUID NOT NULL,
    "booking_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "manage_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "manage_tokens_token_hash_key" ON "manage_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "manage_tokens_booking_id_idx" ON "manage_tokens"("booking_id");

-- AddForeignKey
ALTER TABLE "manage_tokens" ADD CONSTRAINT "manage_tokens_booking_id_fkey" FOREIGN KEY ("booking_id") REFERENCES "bookings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
