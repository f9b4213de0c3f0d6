import { type Database, ingestBatch } from "@tidemark/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constantPolicy, createOrgWithItems, testDatabase } from "../../../packages/db/test/helpers.ts";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue, Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/**
 * A batch is evaluated and written slice by slice, each slice's statement sent while the next
 * is evaluated: the result must be the batch's, whatever the slicing, and all or nothing.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
// Below 110 OK, up to 130 WARNING, above CRITICAL; a problem is hard on its second result.
const POLICY = constantPolicy(100, 1);
const VALUES: Record<string, number[]> = {
  a: [500, 500, 50, 500, 120, 120, 50, 50],
  b: [50, 120, 500, 500, 500, 50, 500, 500],
};

/** One organisation with items a and b, and every point of VALUES queued in one batch. */
async function queuedOrganization(): Promise<string> {
  const org = await createOrgWithItems(
    db,
    Object.keys(VALUES).map((name) => ({ name, policy: POLICY })),
  );
  await ingestBatch(db, {
    organizationId: org,
    agentId: null,
    batch: {
      batchId: `b-${crypto.randomUUID()}`,
      results: Object.entries(VALUES).flatMap(([name, values]) =>
        values.map((value, i) => ({ key: `h-s-${name}`, ts: T0 + i * 60_000, value })),
      ),
    },
  });
  return org;
}

/** What the batch left in the database, without ids. */
async function outcome(org: string) {
  const query = async (sql: string) => (await db.pool.query(sql, [org])).rows;
  return {
    states: await query(
      `SELECT s.key, i.ts, i.state, i.hard_state, i.soft_count FROM item_states i JOIN series s ON s.id = i.series_id
       WHERE s.organization_id = $1 ORDER BY s.key`,
    ),
    changes: await query(
      `SELECT s.key, c.ts, c.state, c.hard, c.explanation FROM state_changes c JOIN series s ON s.id = c.series_id
       WHERE s.organization_id = $1 ORDER BY s.key, c.ts`,
    ),
    alerts: await query(
      `SELECT s.key, a.severity, a.peak_severity, a.opened_at, a.closed_at, a.explanation FROM alerts a JOIN series s ON s.id = a.series_id
       WHERE a.organization_id = $1 ORDER BY s.key, a.opened_at`,
    ),
    events: await query(
      `SELECT s.key, e.ts, e.kind, e.severity, e.detail FROM alert_events e JOIN alerts a ON a.id = e.alert_id JOIN series s ON s.id = a.series_id
       WHERE a.organization_id = $1 ORDER BY s.key, e.ts, e.kind`,
    ),
    queued: await query(`SELECT count(*)::int AS n FROM evaluation_queue WHERE organization_id = $1`),
  };
}

const worker = (slicePoints: number) => alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), { slicePoints });

describe("a batch written slice by slice", () => {
  it("leaves what one slice leaves: states, changes, alerts and their events", async () => {
    const whole = await queuedOrganization();
    await drainQueue(worker(1000));
    const sliced = await queuedOrganization();
    await drainQueue(worker(1));

    const expected = await outcome(whole);
    // Enough happened for slicing to matter: soft counts carried across slices, alerts closed and reopened.
    expect(expected.states.map((s) => [s.key, s.state, s.hard_state, s.soft_count])).toEqual([
      ["h-s-a", "OK", "OK", 0],
      ["h-s-b", "CRITICAL", "CRITICAL", 0],
    ]);
    expect(expected.alerts.map((a) => [a.key, a.peak_severity, a.closed_at !== null])).toEqual([
      ["h-s-a", "CRITICAL", true],
      ["h-s-a", "WARNING", true],
      ["h-s-b", "CRITICAL", true],
      ["h-s-b", "CRITICAL", false],
    ]);
    expect(expected.changes.length).toBeGreaterThan(8);
    expect(expected.queued).toEqual([{ n: 0 }]);
    expect(await outcome(sliced)).toEqual(expected);
  });

  it("is all or nothing: a later slice's failing statement undoes the earlier ones, and the retry evaluates from scratch", async () => {
    const reference = await queuedOrganization();
    await drainQueue(worker(1000));
    const org = await queuedOrganization();
    let slices = 0;
    const failing = new Evaluator(
      db,
      new OrganizationCache(db, 0),
      new OrganizationWindows(),
      {
        beforeWrite: async ({ statement }) => {
          // The third slice's statement cannot bind its parameters: the server refuses it.
          if (++slices === 3) statement.with("refused", `SELECT ${statement.param("not a number", "int")}`);
          return undefined;
        },
      },
      { slicePoints: 2 },
    );
    await expect(failing.runBatch()).rejects.toThrow(/invalid input syntax for type integer/);
    expect(slices).toBeGreaterThanOrEqual(3);
    const after = await outcome(org);
    expect(after).toMatchObject({ states: [], changes: [], alerts: [], events: [], queued: [{ n: 1 }] });

    // The failed claim is deferred with backoff; make it due again as time would.
    await db.pool.query(`UPDATE evaluation_queue SET claimed_until = NULL WHERE organization_id = $1`, [org]);
    await drainQueue(worker(2));
    const [retried, expected] = [await outcome(org), await outcome(reference)];
    expect(retried).toEqual(expected);
  });
});
