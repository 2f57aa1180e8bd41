import type { Db, Executor } from './client';

export interface StaffFact {
  userId: string;
  username: string;
  /** undefined = keep what is stored (UserStatusChanged carries no email). */
  email?: string | null;
  role: 'admin' | 'technician';
  isActive: boolean;
  /** The event's createdAt / changedAt: an older fact never overwrites a newer one. */
  at: Date;
}

export interface TechnicianView {
  id: string;
  username: string;
  email: string | null;
  role: 'technician';
  isActive: boolean;
}

/** The staff directory (technicians for assignment), fed by the gateway's user events. */
export class StaffRepository {
  constructor(private readonly db: Db) {}

  async apply(tx: Executor, fact: StaffFact): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."staff_directory" ("user_id", "username", "email", "role", "is_active", "source_updated_at", "updated_at")
       VALUES ($1::uuid, $2, $3, $4, $5::boolean, $6::timestamptz, now())
       ON CONFLICT ("user_id") DO UPDATE SET
         "username" = CASE WHEN "staff_directory"."source_updated_at" <= EXCLUDED."source_updated_at"
                           THEN EXCLUDED."username" ELSE "staff_directory"."username" END,
         "role" = CASE WHEN "staff_directory"."source_updated_at" <= EXCLUDED."source_updated_at"
                       THEN EXCLUDED."role" ELSE "staff_directory"."role" END,
         "is_active" = CASE WHEN "staff_directory"."source_updated_at" <= EXCLUDED."source_updated_at"
                            THEN EXCLUDED."is_active" ELSE "staff_directory"."is_active" END,
         -- Only UserCreated carries the email: take it whenever it comes, unless a newer one is stored.
         "email" = CASE WHEN $7::boolean AND ("staff_directory"."email" IS NULL
                                              OR "staff_directory"."source_updated_at" <= EXCLUDED."source_updated_at")
                        THEN EXCLUDED."email" ELSE "staff_directory"."email" END,
         "source_updated_at" = GREATEST("staff_directory"."source_updated_at", EXCLUDED."source_updated_at"),
         "updated_at" = now()`,
      fact.userId,
      fact.username,
      fact.email ?? null,
      fact.role,
      fact.isActive,
      fact.at.toISOString(),
      fact.email !== undefined,
    );
  }

  async activeTechnicians(onlyId?: string): Promise<TechnicianView[]> {
    return this.db.$queryRawUnsafe<TechnicianView[]>(
      `SELECT "user_id" AS "id", "username", "email", "role", "is_active" AS "isActive"
       FROM "jobs"."staff_directory"
       WHERE "role" = 'technician' AND "is_active" ${onlyId ? 'AND "user_id" = $1::uuid' : ''}
       ORDER BY "username"`,
      ...(onlyId ? [onlyId] : []),
    );
  }

  async findActiveTechnician(
    tx: Executor,
    id: string,
  ): Promise<{ id: string; username: string } | undefined> {
    const rows = await tx.$queryRawUnsafe<{ id: string; username: string }[]>(
      `SELECT "user_id" AS "id", "username" FROM "jobs"."staff_directory"
       WHERE "user_id" = $1::uuid AND "role" = 'technician' AND "is_active"`,
      id,
    );
    return rows[0];
  }
}
