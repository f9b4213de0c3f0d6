import { type Database, poolOf } from "./database.ts";

/** How many rows one bulk write adds before the tables it filled are analysed at once. */
export const ANALYZE_AFTER_ROWS = 1000;

/** The tables a bulk write filled, as named in ANALYZE: a closed list, never text from a caller. */
export type AnalyzedTable =
  | "hosts"
  | "services"
  | "service_items"
  | "threshold_policies"
  | "threshold_periods"
  | "deployed_items"
  | "series";

/**
 * Brings the planner's statistics up to date once a bulk write that added `rows` rows has
 * committed. A large new organisation (a Bischeck import, its first deployment, its series) is
 * unknown to statistics taken before it: the planner then expects one row of it in each table
 * and plans joins that compare every row with every other, which held the worker for minutes at
 * 30 000 hosts (docs/scaling.md, "Eleventh round"). Autovacuum would analyse a table only once a
 * tenth of it changed, at its next round, and never when the new tenant is a small share of a
 * large table. ANALYZE reads a fixed sample, takes a lock that blocks neither reads nor writes,
 * and costs tens of milliseconds against the seconds such a write takes. Never throws.
 */
export async function analyzeAfterBulkWrite(db: Database, rows: number, tables: readonly AnalyzedTable[]): Promise<void> {
  if (rows < ANALYZE_AFTER_ROWS) return;
  try {
    await poolOf(db).query(`ANALYZE ${tables.join(", ")}`);
  } catch {
    // The write has committed and is whole; statistics are the planner's guide, not data. Failing
    // the caller here would report a stored import or deployment as lost; autovacuum's next round
    // analyses the tables instead.
  }
}
