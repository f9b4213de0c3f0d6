import type { Database } from "@tidemark/db/client";

/**
 * A named benchmark scenario. Database scenarios get a fresh, migrated database of each kind the
 * run covers (embedded TimescaleDB, plain PostgreSQL, and DATABASE_URL when set); they return
 * their own figures, and the runner adds CPU and RSS for the whole run of the scenario.
 */
export interface BenchScenario {
  name: string;
  needsDatabase: boolean;
  run(ctx: { db: Database | null; log: (message: string) => void }): Promise<Record<string, unknown>>;
}
