import { errorResponse } from "@tidemark/api/http";
import { connectDatabase, type Database, isDatabaseUnavailable } from "@tidemark/db/client";

/**
 * One pool per server process. Kept on globalThis so that dev-mode module reloading does not
 * open a new pool on every edit.
 */
const holder = globalThis as unknown as { tidemarkDatabase?: Promise<Database> };

/**
 * A request waits at most this long for a connection: with the database down, agents and load
 * balancers get their 503 quickly (a request waiting 10 s only piles up behind the others).
 */
export const CONNECT_TIMEOUT_MS = 3_000;

/** Seconds a client is asked to wait before trying again while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export function getDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Tidemark with `npm start`, which provides one.");
  holder.tidemarkDatabase ??= connectDatabase(url, {
    max: 5,
    applicationName: "tidemark-web",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  }).catch((error) => {
    holder.tidemarkDatabase = undefined;
    throw error;
  });
  return holder.tidemarkDatabase;
}

export function databaseUnavailableResponse(): Response {
  const response = errorResponse(503, `the database is unavailable: retry in ${UNAVAILABLE_RETRY_AFTER_S} s`);
  response.headers.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_S));
  return response;
}

/**
 * Runs a route with the process's database; while it cannot be reached (down, restarting, out of
 * connections) the answer is 503 with Retry-After, never a 500 nor a hang.
 */
export async function withDatabase(
  respond: (db: Database) => Promise<Response>,
  database: () => Promise<Database> = getDatabase,
): Promise<Response> {
  try {
    return await respond(await database());
  } catch (error) {
    if (isDatabaseUnavailable(error)) return databaseUnavailableResponse();
    throw error;
  }
}
