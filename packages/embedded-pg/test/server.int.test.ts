import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/index.ts";
import { freePort, tempDir } from "./helpers.ts";

describe("embedded server: SQL over the wire", () => {
  const tmp = tempDir();
  let server: EmbeddedPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    server = await startEmbeddedPostgres({ dataDir: tmp.dir });
    pool = new pg.Pool({ connectionString: server.url, max: 5 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    tmp.remove();
  });

  it("answers as postgres with its generated password on 127.0.0.1 with TimescaleDB 2.x loaded", async () => {
    const password = fs.readFileSync(path.join(tmp.dir, "password"), "utf8").trim();
    expect(server.url).toBe(`postgres://postgres:${password}@127.0.0.1:${server.port}/postgres`);
    const { rows } = await pool.query(
      "SELECT current_database() AS db, current_user AS usr, (SELECT extversion FROM pg_extension WHERE extname='timescaledb') AS v",
    );
    expect(rows[0]).toMatchObject({ db: "postgres", usr: "postgres" });
    expect(rows[0].v).toMatch(/^2\.\d+/);
  });

  it("hypertable, time_bucket, continuous aggregate WITH NO DATA + refresh_continuous_aggregate", async () => {
    await pool.query("CREATE TABLE points (series int NOT NULL, ts timestamptz NOT NULL, value double precision)");
    await pool.query("SELECT create_hypertable('points', 'ts', chunk_time_interval => interval '1 day')");
    await pool.query(
      `INSERT INTO points SELECT s, timestamptz '2024-01-01' + i * interval '1 minute', i
       FROM generate_series(1, 2) s, generate_series(0, 179) i`,
    );
    const buckets = await pool.query(
      `SELECT time_bucket('1 hour', ts) AS b, count(*)::int AS n, avg(value) AS avg
       FROM points WHERE series = $1 GROUP BY b ORDER BY b`,
      [1],
    );
    expect(buckets.rows.map((r) => r.n)).toEqual([60, 60, 60]);
    expect(buckets.rows[0].avg).toBeCloseTo(29.5);

    await pool.query(
      `CREATE MATERIALIZED VIEW points_1h WITH (timescaledb.continuous) AS
       SELECT series, time_bucket('1 hour', ts) AS bucket, avg(value) AS avg, count(*) AS n
       FROM points GROUP BY series, bucket WITH NO DATA`,
    );
    // refresh_continuous_aggregate cannot run inside a transaction block: a plain query is fine.
    await pool.query("CALL refresh_continuous_aggregate('points_1h', NULL, NULL)");
    const agg = await pool.query("SELECT bucket, n::int FROM points_1h WHERE series = 2 ORDER BY bucket");
    expect(agg.rows.map((r) => r.n)).toEqual([60, 60, 60]);
  });

  it("a pool of 5 runs 200 concurrent parameterised SELECTs and INSERTs correctly", async () => {
    await pool.query("CREATE TABLE kv (k int PRIMARY KEY, v text NOT NULL)");
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      jobs.push(
        i % 2 === 0
          ? pool.query("SELECT $1::int AS n, $2::text AS s", [i, `s${i}`]).then((r) => {
              expect(r.rows[0]).toEqual({ n: i, s: `s${i}` });
            })
          : pool.query("INSERT INTO kv (k, v) VALUES ($1, $2)", [i, `v${i}`]).then((r) => {
              expect(r.rowCount).toBe(1);
            }),
      );
    }
    await Promise.all(jobs);
    const { rows } = await pool.query("SELECT count(*)::int AS n, sum(k)::int AS s FROM kv");
    expect(rows[0]).toEqual({ n: 100, s: 10000 });
  }, 30_000);

  it("a transaction on one client makes another client wait, then both complete", async () => {
    await pool.query("CREATE TABLE tx (id int)");
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query("BEGIN");
      await a.query("INSERT INTO tx VALUES ($1)", [1]);
      let bDone = false;
      const bQuery = b.query("SELECT count(*)::int AS n FROM tx").then((r) => {
        bDone = true;
        return r.rows[0].n as number;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(bDone).toBe(false); // blocked by a's open transaction
      await a.query("INSERT INTO tx VALUES ($1)", [2]);
      await a.query("COMMIT");
      expect(await bQuery).toBe(2);
    } finally {
      a.release();
      b.release();
    }
  });

  it("an error inside BEGIN, then ROLLBACK, leaves the server usable for everyone", async () => {
    const a = await pool.connect();
    try {
      await a.query("BEGIN");
      await expect(a.query("SELECT * FROM no_such_table WHERE x = $1", [1])).rejects.toThrow(/no_such_table/);
      await expect(a.query("SELECT 1")).rejects.toThrow(/current transaction is aborted/);
      await a.query("ROLLBACK");
      expect((await a.query("SELECT $1::int AS x", [7])).rows[0].x).toBe(7);
    } finally {
      a.release();
    }
    const all = await Promise.all([1, 2, 3, 4, 5].map((i) => pool.query("SELECT $1::int AS x", [i])));
    expect(all.map((r) => r.rows[0].x)).toEqual([1, 2, 3, 4, 5]);
  });

  it("an error outside a transaction (extended protocol) does not leave others waiting", async () => {
    const results = await Promise.allSettled([
      pool.query("SELECT 1/$1::int AS x", [0]),
      pool.query("SELECT $1::int AS x", [1]),
      pool.query("SELECT $1::int AS x", [2]),
    ]);
    expect(results[0]?.status).toBe("rejected");
    expect(results.slice(1).map((r) => r.status === "fulfilled" && r.value.rows[0].x)).toEqual([1, 2]);
  });

  it("messages over 64 KB: a 200 KB parameter and a 5000-row multi-row INSERT", async () => {
    const big = "x".repeat(200 * 1024);
    const echo = await pool.query("SELECT $1::text AS t, length($1::text) AS n", [big]);
    expect(echo.rows[0].n).toBe(big.length);
    expect(echo.rows[0].t).toBe(big);

    await pool.query("CREATE TABLE many (i int, s text)");
    const values: string[] = [];
    const params: unknown[] = [];
    for (let i = 0; i < 5000; i++) {
      values.push(`($${2 * i + 1}, $${2 * i + 2})`);
      params.push(i, `row-${i}`);
    }
    await pool.query(`INSERT INTO many (i, s) VALUES ${values.join(",")}`, params);
    const literal = Array.from({ length: 5000 }, (_, i) => `(${i + 5000}, 'lit-${i}')`).join(",");
    await pool.query(`INSERT INTO many (i, s) VALUES ${literal}`);
    const { rows } = await pool.query("SELECT count(*)::int AS n, max(i) AS m FROM many");
    expect(rows[0]).toEqual({ n: 10000, m: 9999 });
  });

  it("COPY ... FROM STDIN is refused with a clear error instead of crashing the server", async () => {
    await expect(pool.query("COPY many FROM STDIN")).rejects.toThrow(/not supported by the embedded server/);
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
  });

  it("a client that disconnects inside a transaction is rolled back and does not block others", async () => {
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    await c.query("BEGIN");
    await c.query("INSERT INTO tx VALUES ($1)", [99]);
    await c.end();
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM tx WHERE id = $1", [99]);
    expect(rows[0].n).toBe(0);
  });

  it("start is single-flight per data dir and stop() can be called twice", async () => {
    const again = await startEmbeddedPostgres({ dataDir: tmp.dir });
    expect(again).toBe(server);
    const other = tempDir();
    try {
      const [s1, s2] = await Promise.all([startEmbeddedPostgres({ dataDir: other.dir }), startEmbeddedPostgres({ dataDir: other.dir })]);
      expect(s1).toBe(s2);
      await Promise.all([s1.stop(), s2.stop()]);
      await s1.stop();
    } finally {
      other.remove();
    }
  }, 60_000);
});

describe("embedded server: lifecycle", () => {
  it("keeps data across stop() and a new start on the same dir", async () => {
    const tmp = tempDir();
    try {
      let s = await startEmbeddedPostgres({ dataDir: tmp.dir });
      let c = new pg.Client({ connectionString: s.url });
      await c.connect();
      await c.query("CREATE TABLE keep (id int, note text)");
      await c.query("INSERT INTO keep VALUES ($1, $2)", [1, "survives"]);
      await c.query("CREATE TABLE m (ts timestamptz NOT NULL, v float8)");
      await c.query("SELECT create_hypertable('m', by_range('ts'))");
      await c.query(
        "CREATE MATERIALIZED VIEW m_1h WITH (timescaledb.continuous) AS SELECT time_bucket('1 hour', ts) AS b, avg(v) FROM m GROUP BY b WITH NO DATA",
      );
      await c.end();
      await s.stop();

      s = await startEmbeddedPostgres({ dataDir: tmp.dir });
      c = new pg.Client({ connectionString: s.url });
      await c.connect();
      const { rows } = await c.query("SELECT note FROM keep WHERE id = 1");
      // TimescaleDB's TSL features (continuous aggregates) work after a restart too.
      await c.query("INSERT INTO m VALUES (now(), 1)");
      await c.query("CALL refresh_continuous_aggregate('m_1h', NULL, NULL)");
      const { rows: buckets } = await c.query("SELECT count(*)::int AS n FROM m_1h");
      await c.end();
      await s.stop();
      expect(rows).toEqual([{ note: "survives" }]);
      expect(buckets).toEqual([{ n: 1 }]);
    } finally {
      tmp.remove();
    }
  });

  it("refuses a port in use with a clear error, and releases the data dir", async () => {
    const tmp = tempDir();
    const a = tempDir();
    const port = await freePort();
    const s = await startEmbeddedPostgres({ dataDir: a.dir, port });
    try {
      await expect(startEmbeddedPostgres({ dataDir: tmp.dir, port })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use: pass another --port or stop the other process`,
      );
      // the failed start released its lock: the same dir can be started elsewhere
      const ok = await startEmbeddedPostgres({ dataDir: tmp.dir });
      await ok.stop();
    } finally {
      await s.stop();
      tmp.remove();
      a.remove();
    }
  });

  it("runs two servers side by side on two ports with different data dirs", async () => {
    const d1 = tempDir();
    const d2 = tempDir();
    const [s1, s2] = await Promise.all([startEmbeddedPostgres({ dataDir: d1.dir }), startEmbeddedPostgres({ dataDir: d2.dir })]);
    try {
      expect(s1.port).not.toBe(s2.port);
      const c1 = new pg.Client({ connectionString: s1.url });
      const c2 = new pg.Client({ connectionString: s2.url });
      await Promise.all([c1.connect(), c2.connect()]);
      await c1.query("CREATE TABLE only_here (x int)");
      const r2 = await c2.query("SELECT to_regclass('only_here') AS t");
      const r1 = await c1.query("SELECT to_regclass('only_here')::text AS t");
      await Promise.all([c1.end(), c2.end()]);
      expect(r1.rows[0].t).toBe("only_here");
      expect(r2.rows[0].t).toBeNull();
    } finally {
      await Promise.all([s1.stop(), s2.stop()]);
      d1.remove();
      d2.remove();
    }
  });

  it("refuses a data dir that is not writable", async () => {
    const tmp = tempDir();
    try {
      const fs = await import("node:fs");
      const file = `${tmp.dir}/a-file`;
      fs.writeFileSync(file, "");
      await expect(startEmbeddedPostgres({ dataDir: `${file}/db` })).rejects.toThrow(/is not writable/);
    } finally {
      tmp.remove();
    }
  });
});
