import { readFileSync } from "node:fs";
import path from "node:path";
import { connectDatabase } from "@tidemark/db/client";
import { queryRows } from "@tidemark/db/testing";

/** What a spec sets up and looks with: the rows of one statement. */
export interface SqlClient {
  // biome-ignore lint/suspicious/noExplicitAny: the rows of arbitrary SQL, as pg types them
  query<T = any>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/**
 * The database of the Tidemark under test: `npm start` writes its URL into the data folder,
 * which `npm test` passes on. Tests use it to set up what has no UI of its own.
 */
export async function withDatabase<T>(f: (client: SqlClient) => Promise<T>): Promise<T> {
  const dataDir = process.env.TIDEMARK_DATA_DIR;
  if (!dataDir) throw new Error("TIDEMARK_DATA_DIR is not set: run the browser tests through `npm test -- e2e`");
  const url = readFileSync(path.join(dataDir, "database-url"), "utf8").trim();
  const db = await connectDatabase(url, { max: 1, applicationName: "tidemark-e2e" });
  try {
    return await f({ query: async (sql, params = []) => ({ rows: await queryRows(db, sql, params) }) });
  } finally {
    await db.close();
  }
}
