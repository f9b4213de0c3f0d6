import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort, runCli, tempDir } from "./helpers.ts";

async function query(url: string, sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

describe("embedded server CLI", () => {
  it("prints DATABASE_URL, stops on SIGTERM with exit 0 and removes its lock", async () => {
    const tmp = tempDir();
    try {
      const run = runCli(["--data-dir", tmp.dir]);
      const url = await run.url;
      expect(url).toMatch(/^postgres:\/\/postgres:[\w-]{32}@127\.0\.0\.1:\d+\/postgres$/);
      expect(await query(url, "SELECT $1::int AS x", [1])).toEqual([{ x: 1 }]);
      run.child.kill("SIGTERM");
      expect((await run.exit).code).toBe(0);
      expect(fs.existsSync(path.join(tmp.dir, "embedded-pg.lock"))).toBe(false);
    } finally {
      tmp.remove();
    }
  });

  it("keeps committed data after kill -9, and takes over the stale lock", async () => {
    const tmp = tempDir();
    try {
      const first = runCli(["--data-dir", tmp.dir]);
      const url1 = await first.url;
      await query(url1, "CREATE TABLE survivors (id int NOT NULL, ts timestamptz NOT NULL)");
      await query(url1, "SELECT create_hypertable('survivors', 'ts')");
      await query(url1, "INSERT INTO survivors SELECT i, now() FROM generate_series(1, 500) i");
      first.child.kill("SIGKILL");
      expect((await first.exit).signal).toBe("SIGKILL");
      expect(fs.existsSync(path.join(tmp.dir, "embedded-pg.lock"))).toBe(true); // stale

      const second = runCli(["--data-dir", tmp.dir]);
      const url2 = await second.url;
      expect(await query(url2, "SELECT count(*)::int AS n FROM survivors")).toEqual([{ n: 500 }]);
      second.child.kill("SIGTERM");
      expect((await second.exit).code).toBe(0);
    } finally {
      tmp.remove();
    }
  });

  it("refuses a second server on the same data dir with a clear message", async () => {
    const tmp = tempDir();
    const first = runCli(["--data-dir", tmp.dir]);
    try {
      await first.url;
      const second = runCli(["--data-dir", tmp.dir]);
      const exit = await second.exit;
      expect(exit.code).toBe(1);
      expect(exit.stderr).toContain(
        `data dir ${tmp.dir} is in use by another embedded server (pid ${first.child.pid}): stop it or pass another --data-dir`,
      );
    } finally {
      first.child.kill("SIGTERM");
      await first.exit;
      tmp.remove();
    }
  });

  it("refuses a port in use with the clear one-sentence error", async () => {
    const tmp = tempDir();
    const other = tempDir();
    const port = await freePort();
    const first = runCli(["--data-dir", other.dir, "--port", String(port)]);
    try {
      await first.url;
      const second = runCli(["--data-dir", tmp.dir, "--port", String(port)]);
      const exit = await second.exit;
      expect(exit.code).toBe(1);
      expect(exit.stderr.trim()).toBe(`embedded-pg: port ${port} on 127.0.0.1 is in use: pass another --port or stop the other process`);
    } finally {
      first.child.kill("SIGTERM");
      await first.exit;
      tmp.remove();
      other.remove();
    }
  });

  it("SIGTERM while still starting exits 0 without printing a URL", async () => {
    const tmp = tempDir();
    try {
      const run = runCli(["--data-dir", tmp.dir]);
      // The lock file appears once the CLI is running (its signal handlers are installed
      // before it starts the server), and start-up takes seconds after that.
      const lock = path.join(tmp.dir, "embedded-pg.lock");
      for (let waited = 0; !fs.existsSync(lock) && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      run.child.kill("SIGTERM");
      const exit = await run.exit;
      expect(exit.code).toBe(0);
      await expect(run.url).rejects.toThrow(/before ready/);
      expect(fs.existsSync(path.join(tmp.dir, "embedded-pg.lock"))).toBe(false);
    } finally {
      tmp.remove();
    }
  });
});
