-- CreateTable
CREATE TABLE "photo_chunks" (
    "photo_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "photo_chunks_pkey" PRIMARY KEY ("photo_id","seq")
);

-- CreateTable
CREATE TABLE "photo_uploads" (
    "photo_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "photo_uploads_pkey" PRIMARY KEY ("photo_id")
);

-- CreateIndex
CREATE INDEX "photo_uploads_started_at_idx" ON "photo_uploads"("started_at");

-- Hand-written: jpeg, png and webp are compressed already; out of line without pglz saves the CPU of a
-- compression attempt that cannot win (Prisma does not diff column storage).
ALTER TABLE "photo_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- Hand-written: the photos stored so far move into 256 KiB chunks before their column goes.
INSERT INTO "photo_chunks" ("photo_id", "seq", "data")
SELECT p."id", s.seq, substring(p."data" FROM s.seq * 262144 + 1 FOR 262144)
  FROM "job_photos" p
  CROSS JOIN LATERAL generate_series(0, greatest(ceil(length(p."data") / 262144.0)::int - 1, 0)) AS s(seq);

-- AlterTable
ALTER TABLE "job_photos" DROP COLUMN "data";
