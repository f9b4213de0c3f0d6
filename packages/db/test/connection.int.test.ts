import type { Database } from "@tidemark/db/client";
import { testDatabase, withConnection } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Tidemark's connections run without PostgreSQL's JIT compiler (createPool in src/connection.ts):
 * the planner's inflated estimates of its set-at-a-time writes had a 30 000-result calculation
 * statement spend half its time compiling.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

describe("connections run without JIT", () => {
  it("every connection of the pool, the first statement on it included", async () => {
    // Three held at once (the test pool's size): the pool opens a connection for each.
    let arrived = 0;
    let allHeld!: () => void;
    const held = new Promise<void>((resolve) => {
      allHeld = resolve;
    });
    const seen = await Promise.all(
      [1, 2, 3].map(() =>
        withConnection(db, async (query) => {
          const [row] = await query("SELECT current_setting('jit') AS jit, pg_backend_pid() AS pid");
          if (++arrived === 3) allHeld();
          await held;
          return row as { jit: string; pid: number };
        }),
      ),
    );
    // The embedded server serves every connection from its one backend.
    expect(new Set(seen.map((s) => s.pid)).size).toBe(db.info.embedded ? 1 : 3);
    expect(seen.map((s) => s.jit)).toEqual(["off", "off", "off"]);
  });

  it("a statement costed past every JIT threshold is not compiled", async () => {
    const plan = await withConnection(db, async (query) => {
      await query("BEGIN");
      try {
        // As if every statement were expensive enough to compile. (A server built without LLVM
        // compiles nothing either way: there only the case above can fail.)
        await query("SET LOCAL jit_above_cost = 0");
        const [row] = await query("EXPLAIN (ANALYZE, FORMAT JSON) SELECT sum(g) FROM generate_series(1, 1000) g");
        return row["QUERY PLAN"][0];
      } finally {
        await query("ROLLBACK");
      }
    });
    expect(plan.Plan).toBeDefined();
    expect(plan.JIT).toBeUndefined();
  });
});
