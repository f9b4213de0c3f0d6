import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * The database of the Tidemark under test: `npm start` writes its URL into the data folder,
 * which `npm test` passes on. Tests use it to set up what has no UI of its own.
 */
export async function withDatabase<T>(f: (client: pg.Client) => Promise<T>): Promise<T> {
  const dataDir = process.env.TIDEMARK_DATA_DIR;
  if (!dataDir) throw new Error("TIDEMARK_DATA_DIR is not set: run the browser tests through `npm test -- e2e`");
  const client = new pg.Client({ connectionString: readFileSync(path.join(dataDir, "database-url"), "utf8").trim() });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end();
  }
}
