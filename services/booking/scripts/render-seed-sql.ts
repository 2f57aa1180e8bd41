/**
 * Renders the reference-data migration (tyre pricing, landing-page suburbs, the gazetteer) from
 * src/domain/reference/*.ts:
 *
 *   npx tsx services/booking/scripts/render-seed-sql.ts > services/booking/prisma/migrations/<ts>_reference_data/migration.sql
 *
 * Applied migrations are immutable: to change the data later, render the difference into a new migration.
 * A unit test (src/domain/reference/reference.test.ts) checks the committed migration still matches this output.
 */
import { renderSeedSql } from '../src/domain/reference/seed-sql';

process.stdout.write(renderSeedSql());
