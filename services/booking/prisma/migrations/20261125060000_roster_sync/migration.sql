-- Issue 19 audit: booking pulls the gateway's active technicians once (GET /internal/technicians) so technicians
-- created before the roster existed reach it, whatever order the two services are deployed in. One row, written in
-- the transaction that applied the snapshot: while it is absent every replica keeps trying (src/app/roster-sync.ts).
CREATE TABLE "roster_sync" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "synced_at" TIMESTAMPTZ(3) NOT NULL,
    "technicians" INTEGER NOT NULL,

    CONSTRAINT "roster_sync_pkey" PRIMARY KEY ("id")
);

-- Hand-written: the table holds one row.
ALTER TABLE "roster_sync" ADD CONSTRAINT "roster_sync_one_row" CHECK ("id" = 1);
