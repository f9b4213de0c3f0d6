import pg from "pg";

/** A sentence a person can act on, for the ways a DATABASE_URL commonly goes wrong. */
export class DatabaseConnectionError extends Error {
  override name = "DatabaseConnectionError";
}

// BIGINT ids (series) fit in a JS number for any realistic count; NUMERIC stays a string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}

export function explainConnectionError(error: unknown, url: string): DatabaseConnectionError {
  const where = redactUrl(url);
  const e = error as { code?: string; message?: string };
  const reason = (() => {
    switch (e.code) {
      case "ECONNREFUSED":
        return `nothing is listening at ${where}: start the database or fix DATABASE_URL (unset it to use the embedded TimescaleDB).`;
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return `the host in DATABASE_URL (${where}) cannot be resolved: check its spelling.`;
      case "28P01":
      case "28000":
        return `the database refused the user or password in DATABASE_URL (${where}): check the credentials.`;
      case "3D000":
        return `the database named in DATABASE_URL (${where}) does not exist: create it (createdb) or fix the name.`;
      case "42501":
        return `the user in DATABASE_URL (${where}) lacks permission (${e.message}): grant it CREATE on the database and schema, or use an owner account.`;
      case "ERR_INVALID_URL":
        return `DATABASE_URL is not a valid URL: expected postgres://user:password@host:port/database.`;
      default:
        return `cannot use the database at ${where}: ${e.message ?? String(error)}`;
    }
  })();
  return new DatabaseConnectionError(`Database error: ${reason}`);
}

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /** How long to wait for a connection (a new one, or a free one of the pool) before failing; 10 s unless given. */
  connectionTimeoutMillis?: number;
}

/**
 * Every connection runs without PostgreSQL's JIT compiler. It compiles a statement whose
 * estimated cost passes jit_above_cost, and the estimates of Tidemark's set-at-a-time writes
 * (unnest, chained CTEs) run far above their real work: at 30 000 jobs a calculation tick's
 * results statement spent 580–620 ms of its 1.2 s compiling, a 5 000-point ingest batch 26 ms of
 * its 113 ms (pg_stat_statements' jit columns). Nothing Tidemark runs scans enough rows for
 * compiled expressions to pay that back. A SET, not the startup packet's `options`: PgBouncer
 * refuses unknown startup parameters (the embedded server ignores them, and has no JIT).
 */
const WITHOUT_JIT = "SET jit = off";

export function createPool(url: string, opts: PoolOptions = {}): pg.Pool {
  try {
    new URL(url);
  } catch {
    throw explainConnectionError({ code: "ERR_INVALID_URL" }, url);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 5,
    application_name: opts.applicationName ?? "tidemark",
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 10_000,
    idleTimeoutMillis: 30_000,
    // Awaited before the pool hands the connection out. A server that refuses the SET is still
    // used: running without it only costs time.
    onConnect: async (client) => {
      await client.query(WITHOUT_JIT).catch(() => {});
    },
  });
  // An idle client losing its server (database restart) must not crash the process.
  pool.on("error", () => {});
  return pool;
}

/** Fails with a sentence a person can act on when the database cannot be used. */
export async function checkConnection(pool: pg.Pool, url: string): Promise<void> {
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    throw explainConnectionError(error, url);
  }
}

/** Node's socket errors and PostgreSQL's SQLSTATEs (class 08, 53300, 57P01-57P03) that mean "the server is not there now". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "53300",
  "57P01",
  "57P02",
  "57P03",
]);
/** What node-postgres says when it gives up waiting for a connection, or loses one. */
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|connection terminated|connection timeout|Connection refused|Can't reach database server/i;

/**
 * Whether `error` says the database cannot be reached (down, restarting, out of connections), as
 * opposed to a query that failed: callers answer 503 with Retry-After instead of 500. Looks
 * through `cause` chains, since Prisma's driver adapter wraps the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof DatabaseConnectionError) return true;
    const { code, message, originalCode } = current as { code?: unknown; message?: unknown; originalCode?: unknown };
    for (const c of [code, originalCode]) {
      if (typeof c === "string" && (UNAVAILABLE_CODES.has(c) || c.startsWith("08"))) return true;
    }
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}
