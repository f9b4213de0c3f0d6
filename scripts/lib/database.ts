import path from "node:path";
import { connectDatabase, type Database, explainConnectionError } from "@tidemark/db/client";
import { MigrationError, type MigrationResult, migrateDatabase } from "@tidemark/db/migrate";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@tidemark/embedded-pg";

export interface PreparedDatabase {
  url: string;
  embedded: EmbeddedPostgres | null;
  db: Database;
  migration: MigrationResult;
}

/**
 * DATABASE_URL when set; otherwise the embedded TimescaleDB on `<dataDir>/db`. Then the
 * migrations. Every failure surfaces as one sentence (the errors below carry it).
 */
export async function prepareDatabase(opts: {
  dataDir: string;
  embeddedPort?: number;
  log: (message: string) => void;
}): Promise<PreparedDatabase> {
  let embedded: EmbeddedPostgres | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(opts.dataDir, "db"), port: opts.embeddedPort });
    url = embedded.url;
    opts.log(`embedded TimescaleDB serving ${path.join(opts.dataDir, "db")} on 127.0.0.1:${embedded.port}`);
  }
  try {
    const db = await connectDatabase(url, { max: 5, applicationName: "tidemark-start" });
    const migration = await migrateDatabase(db);
    return { url, embedded, db, migration };
  } catch (error) {
    await embedded?.stop();
    // A PostgreSQL error (permissions, missing database…) becomes one sentence with what to do.
    throw error instanceof MigrationError || !(error as { code?: string }).code ? error : explainConnectionError(error, url);
  }
}
