/**
 * `npx tsx scripts/migrate.ts`: apply the migrations to DATABASE_URL (docker-compose's migrate
 * step); with TIDEMARK_SEED_DEMO=1 also seed the demo organisation once (without NAB's series,
 * which live outside the image).
 */
import { connectDatabase } from "@tidemark/db/client";
import { migrateDatabase } from "@tidemark/db/migrate";
import { seedDemo } from "@tidemark/db/seed";
import { fail, say } from "./lib/log.ts";

const url = process.env.DATABASE_URL;
if (!url) fail("DATABASE_URL is not set: point it at the database to migrate.");
try {
  const db = await connectDatabase(url);
  const result = await migrateDatabase(db);
  say(`${result.kind}: ${result.applied.length} migrations applied, ${result.alreadyApplied} already applied`);
  if (process.env.TIDEMARK_SEED_DEMO === "1" && (await seedDemo(db, { nabDir: null, log: say }))) say("demo organisation seeded");
  await db.close();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
