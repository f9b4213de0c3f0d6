import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/index.ts";
import { tempDir } from "./helpers.ts";

/**
 * One PGlite backend serves every connection: what one client does to its session must not reach
 * the others, nobody without the password gets in, and nobody can hold the backend for ever.
 */

const IDLE_MS = 500;

describe("embedded server: connections kept apart", () => {
  const tmp = tempDir();
  let server: EmbeddedPostgres;
  let pool: pg.Pool;
  const withUrl = (change: (u: URL) => void) => {
    const u = new URL(server.url);
    change(u);
    return u.toString();
  };

  beforeAll(async () => {
    server = await startEmbeddedPostgres({ dataDir: tmp.dir, idleInTransactionMs: IDLE_MS });
    pool = new pg.Pool({ connectionString: server.url, max: 3 });
    await pool.query("CREATE TABLE notes (id int PRIMARY KEY)");
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    tmp.remove();
  });

  it("generates its password at the first start and keeps it readable by its owner only", () => {
    const file = path.join(tmp.dir, "password");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8").trim()).toMatch(/^[\w-]{32}$/);
  });

  it("refuses a wrong password with 28P01, and a missing one", async () => {
    const wrong = new pg.Client({ connectionString: withUrl((u) => (u.password = "wrong")) });
    await expect(wrong.connect()).rejects.toMatchObject({ code: "28P01" });
    await wrong.end().catch(() => {});
    // Without a password a client cannot even answer SCRAM (pg refuses to try).
    const none = new pg.Client({ connectionString: withUrl((u) => (u.password = "")), password: "" });
    await expect(none.connect()).rejects.toThrow();
    await none.end().catch(() => {});
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
  });

  it("asks for SCRAM-SHA-256 (RFC 7677), never for a password in the clear or MD5", async () => {
    const first = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(server.port, "127.0.0.1");
      const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
      const startup = Buffer.alloc(8 + params.length);
      startup.writeInt32BE(startup.length, 0);
      startup.writeInt32BE(196608, 4);
      params.copy(startup, 8);
      socket.on("error", reject);
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data);
      });
      socket.write(startup);
    });
    expect(String.fromCharCode(first[0] ?? 0)).toBe("R");
    expect(first.readInt32BE(5)).toBe(10); // AuthenticationSASL
    expect(first.subarray(9).toString("utf8").split("\0").filter(Boolean)).toEqual(["SCRAM-SHA-256"]);
  });

  it("a second client sees none of the first's temp tables, prepared statements, cursors, advisory locks or LISTENs", async () => {
    const first = new pg.Client({ connectionString: server.url });
    await first.connect();
    const census = `SELECT (SELECT count(*)::int FROM pg_class WHERE relpersistence = 't' AND relkind = 'r') AS temp_tables,
                           (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
                           (SELECT count(*)::int FROM pg_cursors) AS cursors,
                           (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory') AS advisory_locks,
                           (SELECT count(*)::int FROM pg_listening_channels()) AS listening`;
    try {
      await first.query("CREATE TEMP TABLE first_only (secret text)");
      await first.query("INSERT INTO first_only VALUES ('mine')");
      await first.query("PREPARE first_statement AS SELECT 'mine'");
      await first.query({ name: "first_named", text: "SELECT 'mine' AS secret" });
      await first.query("BEGIN; DECLARE first_cursor CURSOR WITH HOLD FOR SELECT 'mine'; COMMIT");
      await first.query("SELECT pg_advisory_lock(4242)");
      await first.query("LISTEN first_channel");
      expect((await first.query(census)).rows[0]).toEqual({ temp_tables: 1, prepared: 2, cursors: 1, advisory_locks: 1, listening: 1 });

      const second = await pool.connect();
      try {
        expect((await second.query(census)).rows[0]).toEqual({ temp_tables: 0, prepared: 0, cursors: 0, advisory_locks: 0, listening: 0 });
        await expect(second.query("SELECT secret FROM first_only")).rejects.toMatchObject({ code: "42P01" });
        await expect(second.query("EXECUTE first_statement")).rejects.toMatchObject({ code: "26000" });
        expect((await second.query("SELECT pg_try_advisory_lock(4242) AS got")).rows[0].got).toBe(true);
        await second.query("SELECT pg_advisory_unlock_all()");
      } finally {
        second.release();
      }
      // The first goes on working (its session state lasted as long as it kept the backend).
      expect((await first.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    } finally {
      await first.end();
    }
  });

  it("a connection's session settings never reach another, and come back to it", async () => {
    const intruder = new pg.Client({ connectionString: server.url });
    await intruder.connect();
    try {
      await intruder.query("SELECT set_config('search_path', '', false)");
      await intruder.query("SET statement_timeout = 1234");
      // Every pooled connection, in turn, still sees the server's defaults.
      const seen = await Promise.all(Array.from({ length: 6 }, () => pool.query("SHOW search_path")));
      expect(seen.map((r) => r.rows[0].search_path)).toEqual(Array(6).fill("public"));
      expect((await pool.query("SELECT count(*)::int AS n FROM notes")).rows[0].n).toBe(0);
      expect((await pool.query("SHOW statement_timeout")).rows[0].statement_timeout).toBe("0");
      // The intruder keeps what it set.
      expect((await intruder.query("SHOW search_path")).rows[0].search_path).toMatch(/^("")?$/);
      expect((await intruder.query("SHOW statement_timeout")).rows[0].statement_timeout).toBe("1234ms");
    } finally {
      await intruder.end();
    }
    expect((await pool.query("SHOW search_path")).rows[0].search_path).toBe("public");
  });

  it("startup options that would set the shared session are ignored", async () => {
    const client = new pg.Client({ connectionString: server.url, options: "-c search_path=pg_catalog" });
    await client.connect();
    await client.end();
    expect((await pool.query("SELECT count(*)::int AS n FROM notes")).rows[0].n).toBe(0);
  });

  it("a client idle inside BEGIN past the limit is disconnected and its transaction rolled back", async () => {
    const idle = new pg.Client({ connectionString: server.url });
    idle.on("error", () => {});
    await idle.connect();
    await idle.query("BEGIN");
    await idle.query("INSERT INTO notes VALUES (1)");
    // Waits behind the idle transaction until the server closes it.
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM notes");
    expect(rows[0].n).toBe(0);
    await expect(idle.query("COMMIT")).rejects.toThrow();
    expect((await pool.query("SELECT count(*)::int AS n FROM notes")).rows[0].n).toBe(0);
  });

  it("a client that disconnects mid-transaction is rolled back", async () => {
    const gone = new pg.Client({ connectionString: server.url });
    await gone.connect();
    await gone.query("BEGIN");
    await gone.query("INSERT INTO notes VALUES (2)");
    await gone.end();
    expect((await pool.query("SELECT count(*)::int AS n FROM notes")).rows[0].n).toBe(0);
  });

  it("pg_dump either dumps or is refused cleanly, and leaves the server as it was for everyone", async () => {
    // Asynchronously: the server runs in this process.
    const dump = await new Promise<{ code: number | null; stdout: string; stderr: string } | null>((resolve) => {
      const child = execFile("pg_dump", ["--schema-only", "--table=notes", server.url], { timeout: 60_000 }, (error, stdout, stderr) =>
        resolve((error as NodeJS.ErrnoException | null)?.code === "ENOENT" ? null : { code: child.exitCode, stdout, stderr }),
      );
    });
    if (dump === null) return; // no pg_dump on this machine
    if (dump.code === 0) expect(dump.stdout).toMatch(/CREATE TABLE public\.notes/);
    else expect(dump.stderr).toMatch(/pg_dump: error: /);
    expect((await pool.query("SHOW search_path")).rows[0].search_path).toBe("public");
    expect((await pool.query("SELECT count(*)::int AS n FROM notes")).rows[0].n).toBe(0);
  });
});
