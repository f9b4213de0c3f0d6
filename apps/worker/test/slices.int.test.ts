import { createSilence, createWebhook } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, deleteWebhooksOf, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue, Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";
import { evaluationOutcome } from "./evaluation-outcome.ts";

/**
 * A batch is evaluated and written slice by slice, each slice's statement sent while the next
 * is evaluated: the result must be the batch's, whatever the slicing, and all or nothing.
 */

let db: Database;
const organizations: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await deleteWebhooksOf(db, organizations);
  await db.close();
});

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

const worker = (sliceRecords: number) => alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), { sliceRecords });

describe("a batch written slice by slice", () => {
  it("leaves what one slice leaves: states, changes, alerts and their events", async () => {
    const whole = await queuedOrganization();
    await drainQueue(worker(1000));
    const sliced = await queuedOrganization();
    await drainQueue(worker(1));

    const expected = await evaluationOutcome(db, whole);
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
    expect(await evaluationOutcome(db, sliced)).toEqual(expected);
  });

  it("queues the deliveries one slice queues, with the silences and item links of the batch read once", async () => {
    // Item b silenced from its third result to its sixth (after the first slice's instants); both
    // organisations notify a webhook.
    const notified = async () => {
      const org = await queuedOrganization();
      await createWebhook(db, org, { name: "ops", url: "http://127.0.0.1:9/hook", enabled: true });
      await createSilence(db, org, null, {
        matchers: { host: "h", service: "s", item: "b" },
        startsAt: new Date(T0 + 2 * 60_000),
        endsAt: new Date(T0 + 6 * 60_000),
        comment: "maintenance",
      });
      organizations.push(org);
      return org;
    };
    const deliveries = (org: string) =>
      queryRows(
        db,
        `SELECT s.key, a.opened_at, d.payload->>'status' AS status, d.payload->'alerts'->0->'annotations'->>'preview' AS preview
         FROM notification_deliveries d JOIN alerts a ON a.id = d.alert_id JOIN series s ON s.id = a.series_id
         WHERE a.organization_id = $1 ORDER BY s.key, a.opened_at, d.created_at, status`,
        [org],
      );
    const whole = await notified();
    await drainQueue(worker(1000));
    const sliced = await notified();
    await drainQueue(worker(1));

    // Each organisation has its own silence: its id aside, the outcomes are equal.
    const outcome = async (org: string) => {
      const { events, ...rest } = await evaluationOutcome(db, org);
      return { ...rest, events: events.map((e) => ({ ...e, detail: String(e.detail).replace(/silenced by .*/, "silenced") })) };
    };
    const expected = await outcome(whole);
    expect(expected.events.filter((e) => e.detail === "notification held: silenced")).not.toEqual([]);
    expect(await outcome(sliced)).toEqual(expected);
    const [a] = await queryRows(db, `SELECT id FROM service_items WHERE organization_id = $1 AND series_key = 'h-s-a'`, [sliced]);
    const sent = await deliveries(sliced);
    expect(sent.filter((d) => d.key === "h-s-a").map((d) => d.preview)).toContain(`http://localhost:3000/items/${a.id}`);
    const withoutItems = (rows: Record<string, unknown>[]) => rows.map(({ preview, ...rest }) => ({ ...rest, link: Boolean(preview) }));
    expect(withoutItems(sent)).toEqual(withoutItems(await deliveries(whole)));
  });

  it("ends a slice at its records, not its points: points that write nothing do not count", async () => {
    // Item n has no threshold and its results no plugin status: its points are evaluated (they
    // enter the window) but write no state. Queued between a's, one at each of a's instants.
    const org = await createOrgWithItems(db, [{ name: "a", policy: POLICY }, { name: "n" }]);
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: {
        batchId: `b-${crypto.randomUUID()}`,
        results: VALUES.a!.flatMap((value, i) => [
          { key: "h-s-a", ts: T0 + i * 60_000, value },
          { key: "h-s-n", ts: T0 + i * 60_000, value: i },
        ]),
      },
    });
    const recordsBySlice: number[] = [];
    const counting = new Evaluator(
      db,
      new OrganizationCache(db, 0),
      new OrganizationWindows(),
      {
        beforeWrite: async ({ records }) => {
          recordsBySlice.push(records.length);
          return undefined;
        },
      },
      { sliceRecords: 4 },
    );
    expect(await drainQueue(counting)).toBe(16);
    // Four slices of two records each when a slice was four points. n's last point comes after
    // the second slice is full: the last slice holds it alone, with the batch's completion.
    expect(recordsBySlice).toEqual([4, 4, 0]);
    const { states } = await evaluationOutcome(db, org);
    expect(states.map((s) => s.key)).toEqual(["h-s-a"]);
    // A slice of no records would never end its batch.
    expect(() => new Evaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), {}, { sliceRecords: 0 })).toThrow(/at least 1/);
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
      { sliceRecords: 2 },
    );
    await expect(failing.runBatch()).rejects.toThrow(/invalid input syntax for type integer/);
    expect(slices).toBeGreaterThanOrEqual(3);
    const after = await evaluationOutcome(db, org);
    expect(after).toMatchObject({ states: [], changes: [], alerts: [], events: [], queued: [{ n: 16 }] });

    // The failed claim is deferred with backoff; make it due again as time would.
    await execute(db, `UPDATE evaluation_queue SET claimed_until = NULL WHERE organization_id = $1`, [org]);
    await drainQueue(worker(2));
    const [retried, expected] = [await evaluationOutcome(db, org), await evaluationOutcome(db, reference)];
    expect(retried).toEqual(expected);
  });
});
