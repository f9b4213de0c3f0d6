/** `@tidemark/db/client`: connecting to PostgreSQL, and what the connection says about it. */

export {
  DatabaseConnectionError,
  explainConnectionError,
  isDatabaseUnavailable,
  type PoolOptions,
  redactUrl,
} from "../connection.ts";
export { connectDatabase, type Database } from "../database.ts";
export type { DatabaseInfo, DatabaseKind } from "../database-kind.ts";
export { appliedMigrationCount, currentDatabaseInfo } from "../server-status.ts";
