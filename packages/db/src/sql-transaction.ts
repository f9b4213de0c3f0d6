import type pg from "pg";
import { type Database, poolOf } from "./database.ts";

/**
 * Runs `work` on one connection inside BEGIN … COMMIT (plain SQL): rolled back when it throws,
 * the connection released either way.
 */
export async function inSqlTransaction<T>(db: Database, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await poolOf(db).connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
