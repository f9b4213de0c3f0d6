import type { Database } from "@tidemark/db/client";
import { EVALUATION_SHARDS } from "@tidemark/db/evaluation";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, hostsByShard, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";
import { evaluationOutcome } from "./evaluation-outcome.ts";

/**
 * Several workers share one organisation, each taking a shard of its series at a time: what
 * they leave (states, state changes, alerts and their events) must be what one worker leaves.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 3, 6, 8, 0, 0);
const ITEMS = 48;
const POINTS = 24;
const BATCHES = 6;

/** Below 110 OK, up to 130 WARNING, above CRITICAL; a problem is hard on its second result. */
function value(item: number, i: number): number {
  return [50, 120, 500, 500, 50, 120, 120, 50][(item * 3 + i) % 8]! + (item % 5);
}

/**
 * A large organisation with every item's points queued over several agent batches: each item on
 * a host of its own, six hosts a shard (a series' shard follows its host).
 */
async function queuedOrganization(): Promise<string> {
  const hosts = (await hostsByShard(db, ITEMS / EVALUATION_SHARDS)).flat();
  expect(hosts).toHaveLength(ITEMS);
  const items = hosts.map((host, i) => ({ name: `m${i}`, host, policy: constantPolicy(100, 2) }));
  const org = await createOrgWithItems(db, items);
  const perBatch = POINTS / BATCHES;
  for (let b = 0; b < BATCHES; b++) {
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: {
        batchId: `b-${crypto.randomUUID()}`,
        results: items.flatMap(({ name, host }, item) =>
          Array.from({ length: perBatch }, (_, k) => b * perBatch + k).map((i) => ({
            key: `${host}-s-${name}`,
            ts: T0 + i * 60_000,
            value: value(item, i),
          })),
        ),
      },
    });
  }
  return org;
}

const newWorker = () => alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), { maxQueueRows: 1 });

async function queued(org: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM evaluation_queue WHERE organization_id = $1`, [org]);
  return rows[0]!.n;
}

/** Runs the worker until the organisation's queue is empty; returns how many of its points this worker evaluated. */
async function work(worker: Evaluator, org: string): Promise<number> {
  let mine = 0;
  while ((await queued(org)) > 0) {
    const batch = await worker.runBatch();
    if (batch.organizationId === org) mine += batch.points;
    // Every shard with work is held by another worker: give them the connection's turn.
    if (batch.points === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return mine;
}

describe("several workers on one organisation", () => {
  it("the organisation's series span several shards", async () => {
    const org = await queuedOrganization();
    const rows = await queryRows<{ n: number }>(
      db,
      `SELECT count(DISTINCT host_shard)::int AS n FROM evaluation_queue WHERE organization_id = $1`,
      [org],
    );
    expect(rows[0]!.n).toBe(EVALUATION_SHARDS);
    await work(newWorker(), org);
  });

  it("three workers leave the same states, state changes and alerts as one, each point evaluated once", async () => {
    const reference = await queuedOrganization();
    await work(newWorker(), reference);
    const org = await queuedOrganization();
    const evaluated = await Promise.all([newWorker(), newWorker(), newWorker()].map((worker) => work(worker, org)));

    expect(evaluated.reduce((a, b) => a + b, 0)).toBe(ITEMS * POINTS);
    // They did share it (each batch is one queue row of one shard).
    expect(evaluated.filter((n) => n > 0).length).toBeGreaterThan(1);
    const [scaled, expected] = [await evaluationOutcome(db, org), await evaluationOutcome(db, reference)];
    expect(expected.changes.length).toBeGreaterThan(ITEMS);
    expect(expected.alerts.length).toBeGreaterThan(0);
    expect(scaled).toEqual(expected);
  });

  it("one batch takes every due shard of the organisation but one another worker holds", async (context) => {
    // As below: two transactions open at once need PostgreSQL.
    if (db.info.embedded) context.skip();
    const org = await queuedOrganization();
    let inside!: () => void;
    const holding = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = new Evaluator(
      db,
      new OrganizationCache(db, 0),
      new OrganizationWindows(),
      {
        beforeWrite: async ({ organizationId }) => {
          if (organizationId !== org) return undefined;
          inside();
          await released;
          return undefined;
        },
      },
      { maxQueueRows: 1 },
    );
    const held = holder.runBatch();
    await holding;
    const taker = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
    const batch = await taker.runBatch();
    release();
    const { shards: heldShards } = await held;
    expect(heldShards).toHaveLength(1);
    const others = Array.from({ length: EVALUATION_SHARDS }, (_, shard) => shard).filter((shard) => shard !== heldShards[0]);
    expect(batch.organizationId).toBe(org);
    expect(batch.shards).toEqual(others);
    // Every point of those seven shards in one batch (48 series on 48 hosts: six a shard).
    expect(batch.points).toBe((EVALUATION_SHARDS - 1) * (ITEMS / EVALUATION_SHARDS) * POINTS);
    await work(newWorker(), org);
  });

  it("two workers evaluate two shards of one organisation at the same time", async (context) => {
    // The embedded server has one backend: a second transaction waits for the first to end, so
    // two can never be open at once there, whatever the locks. Shown on PostgreSQL.
    if (db.info.embedded) context.skip();
    // Each worker's batch waits, inside its transaction, until the other's is inside its own too:
    // with one lock per organisation the second could never get there.
    const org = await queuedOrganization();
    let arrived = 0;
    let bothInside!: () => void;
    const together = new Promise<void>((resolve) => (bothInside = resolve));
    const meetInside = () =>
      new Evaluator(
        db,
        new OrganizationCache(db, 0),
        new OrganizationWindows(),
        {
          beforeWrite: async ({ organizationId }) => {
            if (organizationId !== org) return undefined;
            if (++arrived === 2) bothInside();
            await together;
            return undefined;
          },
        },
        { maxQueueRows: 1 },
      );
    const batches = await Promise.all([meetInside().runBatch(), meetInside().runBatch()]);
    expect(batches.map((b) => b.organizationId)).toEqual([org, org]);
    // Each took one shard (a shard's six queue rows are more than the batch's one), not the same one.
    expect(batches.map((b) => b.shards.length)).toEqual([1, 1]);
    expect(batches[0]!.shards[0]).not.toBe(batches[1]!.shards[0]);
    await work(newWorker(), org);
  });
});
