import { connectDatabase, type Database } from "@tidemark/db";

/**
 * One pool per server process. Kept on globalThis so that dev-mode module reloading does not
 * open a new pool on every edit.
 */
const holder = globalThis as unknown as { tidemarkDatabase?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Tidemark with `npm start`, which provides one.");
  holder.tidemarkDatabase ??= connectDatabase(url, { max: 5, applicationName: "tidemark-web" }).catch((error) => {
    holder.tidemarkDatabase = undefined;
    throw error;
  });
  return holder.tidemarkDatabase;
}
