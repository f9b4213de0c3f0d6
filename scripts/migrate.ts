/** `npx tsx scripts/migrate.ts`: apply the migrations to DATABASE_URL (docker-compose's migrate step). */
import { connectDatabase, migrate } from "@tidemark/db";
import { MIGRATIONS_DIR } from "@tidemark/db/paths";
import { fail, say } from "./lib/log.ts";

const url = process.env.DATABASE_URL;
if (!url) fail("DATABASE_URL is not set: point it at the database to migrate.");
try {
  const db = await connectDatabase(url);
  const client = await db.pool.connect();
  const result = await migrate(client, MIGRATIONS_DIR);
  client.release();
  await db.close();
  say(`${result.kind}: ${result.applied.length} migrations applied, ${result.alreadyApplied} already applied`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
