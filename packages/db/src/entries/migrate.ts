/** `@tidemark/db/migrate`: the schema's migrations (prisma/migrations), applied and counted. */
export {
  MigrationError,
  type MigrationFile,
  type MigrationResult,
  migrateDatabase,
  readMigrations,
} from "../migrate.ts";
export { MIGRATIONS_DIR } from "../paths.ts";
