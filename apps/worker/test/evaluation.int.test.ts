import type { Database } from "@tidemark/db/client";
import { EVALUATION_SHARDS, type EvaluationRecord } from "@tidemark/db/evaluation";
import { type IngestInput, ingestBatch } from "@tidemark/db/metrics";
import { createOrgWithItems, execute, hostsByShard, queryRows, seriesShards, testDatabase, withConnection } from "@tidemark/db/testing";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainQueue, Evaluator, type EvaluatorOptions } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

let db: Database;
/** Three hosts, each in its own evaluation shard (a series' shard follows its host). */
let H0: string;
let H1: string;
let H2: string;
beforeAll(async () => {
  db = await testDatabase();
  [H0, H1, H2] = (await hostsByShard(db)).map(([host]) => host!) as [string, string, string];
});
afterAll(async () => db.close());

const hours = (entry: ThresholdPolicy["periods"][number]["hours"]["entries"][number]) => ({
  entries: Array.from({ length: 24 }, () => entry),
  levels: Array.from({ length: 24 }, () => null),
});

function policy(entry: ThresholdPolicy["periods"][number]["hours"]["entries"][number], calcMethod: "<" | ">" = "<"): ThresholdPolicy {
  return {
    periods: [{ months: [], weeks: [], calcMethod, warning: 10, critical: 30, hours: hours(entry) }],
    holidays: [],
    nullState: "UNKNOWN",
    // Bischeck's ServiceState: hard on the (maxSoft+1)-th problem in a row, i.e. the third here.
    maxSoft: 2,
    timeZone: "UTC",
  };
}

const orgWithItems = (items: { name: string; policy: ThresholdPolicy | null; host?: string }[]) => createOrgWithItems(db, items);

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
const minute = (i: number) => T0 + i * 60_000;

async function changes(organizationId: string) {
  const rows = await queryRows(
    db,
    `SELECT se.key, c.ts, c.state, c.hard, c.value, c.threshold FROM state_changes c JOIN series se ON se.id = c.series_id
     WHERE se.organization_id = $1 ORDER BY se.key, c.ts`,
    [organizationId],
  );
  return rows.map((r) => ({ key: r.key, ts: r.ts.getTime(), state: r.state, hard: r.hard, value: r.value, threshold: r.threshold }));
}

/** The organisation's series ids by key. */
async function seriesIdByKey(organizationId: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ key: string; id: number }>(db, `SELECT key, id::float8 AS id FROM series WHERE organization_id = $1`, [
    organizationId,
  ]);
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** The value stored at minute i by ingestMinutes. */
const v = (i: number) => 1000 + i;

/** Stores results as one agent batch of their own. */
function ingestResults(organizationId: string, results: IngestInput["batch"]["results"]) {
  return ingestBatch(db, { organizationId, agentId: null, batch: { batchId: `b-${crypto.randomUUID()}`, results } });
}

/** Stores the series' points at minutes from…to (value v(i)), as one agent batch. */
function ingestMinutes(organizationId: string, key: string, from: number, to: number) {
  return ingestResults(
    organizationId,
    Array.from({ length: to - from + 1 }, (_, k) => ({ key, ts: minute(from + k), value: v(from + k) })),
  );
}

/** An evaluator collecting the records of one organisation (the queue holds other tests' work too). */
function newEvaluator(collected?: EvaluationRecord[], organization?: string, options: EvaluatorOptions = {}) {
  return new Evaluator(
    db,
    new OrganizationCache(db, 0),
    new OrganizationWindows(),
    {
      beforeWrite: async ({ records, organizationId }) => {
        if (organization === undefined || organizationId === organization) collected?.push(...records);
        return undefined;
      },
    },
    options,
  );
}

/**
 * How a series read from another shard meets its own evaluation. With one queue row a batch, the
 * reading shard's batch comes first and reads it ahead, and its own shard's batch takes that back;
 * with the default limits, the organisation's light work is one batch, which reads it in time
 * order; with a small `wholeOrganizationPoints`, the reading shard goes alone (the work is not
 * light yet) and a later batch of several shards, its own among them, takes it back.
 */
const SHARD_BATCHES: { batches: string; options: EvaluatorOptions; readAhead: boolean; takenBackWithOthers: boolean }[] = [
  { batches: "a shard a batch", options: { maxQueueRows: 1 }, readAhead: true, takenBackWithOthers: false },
  { batches: "all shards in one batch", options: {}, readAhead: false, takenBackWithOthers: false },
  {
    batches: "read by a batch of one shard, taken back by a batch of several",
    options: { wholeOrganizationPoints: 4 },
    readAhead: true,
    takenBackWithOthers: true,
  },
];

describe("from ingest to states", () => {
  it("stores a batch once, reports unknown series, and evaluates each new point once with soft/hard states", async () => {
    const org = await orgWithItems([{ name: "latency", policy: policy({ kind: "constant", value: 100 }) }]);
    const values = [50, 50, 200, 200, 200];
    const batch = {
      batchId: `b-${crypto.randomUUID()}`,
      results: [
        ...values.map((value, i) => ({ key: "h-s-latency", ts: minute(i), value })),
        { key: "h-s-nosuchitem", ts: minute(0), value: 1 },
      ],
    };
    const first = await ingestBatch(db, { organizationId: org, agentId: null, batch });
    expect(first).toEqual({ batchId: batch.batchId, accepted: 5, duplicate: false, unknownSeries: ["h-s-nosuchitem"] });
    const retry = await ingestBatch(db, { organizationId: org, agentId: null, batch });
    expect(retry).toMatchObject({ accepted: 0, duplicate: true });

    const evaluated: EvaluationRecord[] = [];
    await drainQueue(newEvaluator(evaluated, org));
    expect(evaluated.filter((r) => r.value !== null).map((r) => [r.state, r.hardState, r.softCount])).toEqual([
      ["OK", "OK", 0],
      ["OK", "OK", 0],
      ["CRITICAL", "OK", 1],
      ["CRITICAL", "OK", 2],
      ["CRITICAL", "CRITICAL", 0],
    ]);
    expect(await changes(org)).toEqual([
      { key: "h-s-latency", ts: minute(0), state: "OK", hard: false, value: 50, threshold: 100 },
      { key: "h-s-latency", ts: minute(2), state: "CRITICAL", hard: false, value: 200, threshold: 100 },
      { key: "h-s-latency", ts: minute(4), state: "CRITICAL", hard: true, value: 200, threshold: 100 },
    ]);
    const rows = await queryRows(db, `SELECT count(*)::int AS n FROM evaluation_queue WHERE organization_id = $1`, [org]);
    expect(rows[0].n).toBe(0);
  });

  it("carries a point without a value (a check that measured nothing) to the policy's null state", async () => {
    const org = await orgWithItems([{ name: "n", policy: policy({ kind: "constant", value: 100 }) }]);
    await ingestResults(org, [
      { key: "h-s-n", ts: minute(0), value: 0.25 },
      { key: "h-s-n", ts: minute(1), value: null },
    ]);
    const evaluated: EvaluationRecord[] = [];
    await drainQueue(newEvaluator(evaluated));
    expect(evaluated.map((r) => [r.ts, r.value, r.state])).toEqual([
      [minute(0), 0.25, "OK"],
      [minute(1), null, "UNKNOWN"],
    ]);
  });

  it("a point stamped in the future does not block the present points that follow it", async () => {
    const org = await orgWithItems([{ name: "f", policy: policy({ kind: "constant", value: 100 }) }]);
    const ingest = (ts: number, value: number) => ingestResults(org, [{ key: "h-s-f", ts, value }]);
    const stateTs = async () =>
      (
        await queryRows(db, `SELECT st.ts FROM item_states st JOIN series s ON s.id = st.series_id WHERE s.organization_id = $1`, [org])
      ).map((r) => r.ts.getTime());
    const present = Date.now() - 120_000;

    await ingest(Date.UTC(2099, 0, 1), 500);
    await drainQueue(newEvaluator());
    await ingest(present, 50);
    const evaluated: EvaluationRecord[] = [];
    await drainQueue(newEvaluator(evaluated));
    expect(evaluated.map((r) => [r.ts, r.state])).toEqual([[present, "OK"]]);
    expect(await stateTs()).toEqual([present]);

    // A state stamped 2099 (stored before ingest refused such points): the next present point still counts.
    await execute(db, `UPDATE item_states SET ts = '2099-01-01' WHERE series_id IN (SELECT id FROM series WHERE organization_id = $1)`, [
      org,
    ]);
    await ingest(present + 60_000, 200);
    const after: EvaluationRecord[] = [];
    await drainQueue(newEvaluator(after));
    expect(after.map((r) => [r.ts, r.state])).toEqual([[present + 60_000, "CRITICAL"]]);
    expect(await stateTs()).toEqual([present + 60_000]);
  });

  it("evaluates expression thresholds against the history window, [0] being the point itself", async () => {
    const org = await orgWithItems([
      { name: "rpm", policy: policy({ kind: "expression", source: "avg($$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[1:2])" }, ">") },
    ]);
    const values = [100, 100, 100, 20];
    await ingestResults(
      org,
      values.map((value, i) => ({ key: "h-s-rpm", ts: minute(i), value })),
    );
    const evaluated: EvaluationRecord[] = [];
    await drainQueue(newEvaluator(evaluated));
    // Point 0 has no [1]: no threshold (OK, NA); point 1 reads [100] (Bischeck's cache returns the
    // indices that exist), point 2 reads 100 and 100; point 3: T = 100, 20 < 0.7·100.
    expect(evaluated.map((r) => r.threshold)).toEqual([null, 100, 100, 100]);
    expect(evaluated.map((r) => r.state)).toEqual(["OK", "OK", "OK", "CRITICAL"]);
  });

  it("sees points stored by an earlier batch (another worker's) through the window's catch-up", async () => {
    const org = await orgWithItems([{ name: "q", policy: policy({ kind: "expression", source: "h-s-q[1] * 1" }) }]);
    const evaluatorA = newEvaluator();
    const recordsB: EvaluationRecord[] = [];
    const evaluatorB = newEvaluator(recordsB);
    await ingestResults(org, [{ key: "h-s-q", ts: minute(0), value: 10 }]);
    await drainQueue(evaluatorA);
    await ingestResults(org, [{ key: "h-s-q", ts: minute(1), value: 11 }]);
    await drainQueue(evaluatorA);
    await ingestResults(org, [{ key: "h-s-q", ts: minute(2), value: 99 }]);
    await drainQueue(evaluatorB);
    expect(recordsB.map((r) => [r.value, r.threshold, r.state])).toEqual([[99, 11, "CRITICAL"]]);
  });

  it.each(SHARD_BATCHES)(
    "a series another shard reads evaluates as if it had not been read ($batches)",
    async ({ options, readAhead, takenBackWithOthers }) => {
      // q's threshold reads its own point 15 back; r, on another host, reads q's newest point from
      // r's shard; p, on a third host and shard, only has work due beside q's.
      const [q, r, p] = [`${H0}-s-q`, `${H1}-s-r`, `${H2}-s-p`];
      const org = await orgWithItems([
        { name: "q", host: H0, policy: policy({ kind: "expression", source: `${q}[15] * 1` }) },
        { name: "r", host: H1, policy: policy({ kind: "expression", source: `${q}[0] * 1` }) },
        { name: "p", host: H2, policy: policy({ kind: "constant", value: 100 }) },
      ]);
      const ingest = (key: string, from: number, to: number) => ingestMinutes(org, key, from, to);
      const records: EvaluationRecord[] = [];
      const evaluator = newEvaluator(records, org, options);
      // A full window of q (and r) in this worker's memory, every shard evaluated last by it.
      for (const key of [q, r, p]) await ingest(key, 0, 29);
      await drainQueue(evaluator);
      const [ids, shardOfKey] = [await seriesIdByKey(org), await seriesShards(db, org)];
      expect(new Set([q, r, p].map((key) => shardOfKey.get(key))).size).toBe(3);
      // Read ahead, r's batch comes first and reads q's stored points 30–32, which push the oldest
      // out of q's window; in one batch, r at 30 reads q at 30 only.
      await ingest(r, 30, 30);
      await ingest(q, 30, 32);
      await ingest(p, 30, 30);
      records.length = 0;
      const shards = (...keys: string[]) => keys.map((key) => shardOfKey.get(key)!).sort((a, b) => a - b);
      const first = await evaluator.runBatch();
      expect(first.shards).toEqual(readAhead ? shards(r) : shards(q, r, p));
      if (takenBackWithOthers) expect((await evaluator.runBatch()).shards).toEqual(shards(q, p));
      await drainQueue(evaluator);
      const seriesRecords = (key: string) => records.filter((record) => record.seriesId === ids.get(key));
      expect(seriesRecords(r).map((record) => record.threshold)).toEqual([v(readAhead ? 32 : 30)]);
      expect(seriesRecords(q).map((record) => [record.ts, record.threshold])).toEqual([30, 31, 32].map((i) => [minute(i), v(i - 15)]));
    },
  );

  it("a series of a shard the batch holds, read without points of its own, evaluates as if it had not been read", async () => {
    // q's threshold reads its own point 15 back; eight readers of q's newest point, one in each
    // shard (on a host of its own, q's for the one in q's shard). A worker that has not caught q
    // up (a restart) takes the reader's batch first: q's stored points 30–32 are read ahead of
    // q's own batch, which must not see them.
    const hosts = (await hostsByShard(db)).map(([host]) => host!);
    expect(hosts).toHaveLength(EVALUATION_SHARDS);
    const readers = hosts.map((host, i) => ({ name: `r${i}`, host }));
    const q = `${H0}-s-q`;
    const org = await orgWithItems([
      { name: "q", host: H0, policy: policy({ kind: "expression", source: `${q}[15] * 1` }) },
      ...readers.map(({ name, host }) => ({ name, host, policy: policy({ kind: "expression", source: `${q}[0] * 1` }) })),
    ]);
    const ingest = (key: string, from: number, to: number) => ingestMinutes(org, key, from, to);
    await ingest(q, 0, 29);
    for (const { name, host } of readers) await ingest(`${host}-s-${name}`, 29, 29);
    await drainQueue(newEvaluator());
    const [ids, shardOfKey] = [await seriesIdByKey(org), await seriesShards(db, org)];
    const reader = readers.map(({ name, host }) => `${host}-s-${name}`).find((key) => shardOfKey.get(key) === shardOfKey.get(q));
    expect(reader, "a reader in q's shard").toBeDefined();
    await ingest(reader!, 30, 30);
    await ingest(q, 30, 32);
    const records: EvaluationRecord[] = [];
    const restarted = newEvaluator(records, org, { maxQueueRows: 1 });
    const first = await restarted.runBatch();
    expect(first.points).toBe(1);
    await drainQueue(restarted);
    expect(records.filter((r) => r.seriesId === ids.get(reader!)).map((r) => r.threshold)).toEqual([v(32)]);
    expect(records.filter((r) => r.seriesId === ids.get(q)).map((r) => [r.ts, r.threshold])).toEqual(
      [30, 31, 32].map((i) => [minute(i), v(i - 15)]),
    );
  });

  describe("a late point (older than one already evaluated) arriving with a new one", () => {
    // In time order the history is 0, 1, 1½ (late), 2, 3. A threshold reading the two points
    // before 3 reads 2 and 1½ (12 + 500), as from a window loaded afresh after the batch; a window
    // that took the late point back with everything after it read 1½ and 1 (500 + 11), one that
    // left it out 2 and 1 (12 + 11). The late point itself is stored, not evaluated: it cannot
    // rewind the state machine.
    const late = minute(1) + 30_000;
    const history = [0, 1, 2].map((i) => ({ ts: minute(i), value: 10 + i }));
    const lateBatch = [
      { ts: late, value: 500 },
      { ts: minute(3), value: 13 },
    ];

    async function scenario(items: { name: string; policy: ThresholdPolicy | null; host?: string }[]) {
      const org = await orgWithItems(items);
      const send = (key: string, results: { ts: number; value: number }[]) =>
        ingestResults(
          org,
          results.map((r) => ({ key, ...r })),
        );
      const records: EvaluationRecord[] = [];
      const ids = () => seriesIdByKey(org);
      return { org, send, records, ids, evaluator: (options: EvaluatorOptions = {}) => newEvaluator(records, org, options) };
    }

    it.each(["held", "loaded afresh", "read ahead by another shard", "read by another shard in the same batch"] as const)(
      "is in the window of its series, and no point after it is lost (window %s)",
      async (windowOf) => {
        // q and r on hosts of their own, in two shards.
        const [q, r] = [`${H0}-s-q`, `${H1}-s-r`];
        const { org, send, records, ids, evaluator } = await scenario([
          { name: "q", host: H0, policy: policy({ kind: "expression", source: `${q}[1] + ${q}[2]` }) },
          { name: "r", host: H1, policy: policy({ kind: "expression", source: `${q}[0] * 1` }) },
        ]);
        const readByR = windowOf.startsWith("read");
        const first = evaluator(windowOf === "read ahead by another shard" ? { maxQueueRows: 1 } : {});
        await send(q, history);
        // r, in another shard, reads q: at 0 after q's history is evaluated, and at 3 ahead of q's batch.
        if (readByR) await send(r, [{ ts: minute(0), value: 1 }]);
        await drainQueue(first);
        if (readByR) await send(r, [{ ts: minute(3), value: 1 }]);
        await send(q, lateBatch);
        records.length = 0;
        await drainQueue(windowOf === "loaded afresh" ? evaluator() : first);
        const seriesIds = await ids();
        const shards = await seriesShards(db, org);
        if (readByR) expect(shards.get(q)).not.toBe(shards.get(r));
        expect(records.filter((record) => record.seriesId === seriesIds.get(q)).map((record) => [record.ts, record.threshold])).toEqual([
          [minute(3), 512],
        ]);
      },
    );

    it.each(["read ahead by another shard", "loaded afresh"] as const)(
      "is in the window of a series without a threshold that another shard reads (window %s)",
      async (windowOf) => {
        const [n, r] = [`${H0}-s-n`, `${H1}-s-r`];
        const { org, send, records, ids, evaluator } = await scenario([
          { name: "n", host: H0, policy: null },
          { name: "r", host: H1, policy: policy({ kind: "expression", source: `${n}[1] + ${n}[2]` }) },
        ]);
        const first = evaluator({ maxQueueRows: 1 });
        await send(n, history);
        await send(r, [{ ts: minute(0), value: 1 }]);
        await drainQueue(first);
        // Loaded afresh: another worker (a restart) takes n's batch, which nothing tells is late but the database.
        const second = windowOf === "loaded afresh" ? evaluator() : first;
        await send(n, lateBatch);
        await drainQueue(second);
        await send(r, [{ ts: minute(3), value: 1 }]);
        records.length = 0;
        await drainQueue(second);
        const seriesIds = await ids();
        const shards = await seriesShards(db, org);
        expect(shards.get(n)).not.toBe(shards.get(r));
        expect(records.map((record) => [record.seriesId, record.ts, record.threshold])).toEqual([[seriesIds.get(r), minute(3), 512]]);
      },
    );
  });

  it("a worker that dies mid-batch loses nothing: its claim returns to the queue", async () => {
    const org = await orgWithItems([{ name: "z", policy: policy({ kind: "constant", value: 100 }) }]);
    await ingestResults(org, [{ key: "h-s-z", ts: minute(0), value: 1 }]);
    await withConnection(db, async (dying) => {
      await dying("BEGIN");
      const claimed = await dying(`SELECT id FROM evaluation_queue WHERE organization_id = $1 FOR UPDATE`, [org]);
      expect(claimed).toHaveLength(1);
      await dying("ROLLBACK"); // what the server does when the worker's connection drops
    });
    const records: EvaluationRecord[] = [];
    expect(await drainQueue(newEvaluator(records))).toBeGreaterThanOrEqual(1);
    expect(records.map((r) => r.value)).toContain(1);
  });
});

describe("several workers side by side", () => {
  it.each([
    { between: "a late point", points: [{ ts: minute(1) + 30_000, value: 500 }], threshold: 500 },
    { between: "no late point", points: [], threshold: 11 },
  ])("a worker taking a shard back reads what another evaluated there, $between included", async ({ points, threshold }) => {
    // q's threshold reads its own point 3 back. A holds q's window 0, 1, 2; B evaluates the
    // shard once — a point at 3, and maybe a late one at 1½ — then A takes it back at 4: its
    // window must hold 4, 3, 2 and 1½ (or 1) as one loaded afresh would, not only what came
    // after its newest point.
    const org = await orgWithItems([{ name: "q", policy: policy({ kind: "expression", source: "h-s-q[3] * 1" }) }]);
    const a: EvaluationRecord[] = [];
    const workerA = newEvaluator(a, org);
    const workerB = newEvaluator(undefined, org);
    const send = (results: { ts: number; value: number }[]) =>
      ingestResults(
        org,
        results.map((r) => ({ key: "h-s-q", ...r })),
      );
    await send([0, 1, 2].map((i) => ({ ts: minute(i), value: 10 + i })));
    await drainQueue(workerA);
    await send([...points, { ts: minute(3), value: 13 }]);
    await drainQueue(workerB);
    await send([{ ts: minute(4), value: 14 }]);
    a.length = 0;
    await drainQueue(workerA);
    expect(a.map((r) => [r.ts, r.threshold])).toEqual([[minute(4), threshold]]);
  });

  it("a worker that was not the last evaluator forgets its remembered states and reads item_states", async () => {
    // Value 500 against T = 100 with "<" is CRITICAL: soft 1, 2, then hard at the third result.
    // Were worker A to trust what it remembered after B's evaluation, it would count soft 2 again.
    const org = await orgWithItems([{ name: "q", policy: policy({ kind: "constant", value: 100 }) }]);
    const a: EvaluationRecord[] = [];
    const b: EvaluationRecord[] = [];
    const workerA = newEvaluator(a);
    const workerB = newEvaluator(b);
    const send = (i: number) => ingestResults(org, [{ key: "h-s-q", ts: minute(i), value: 500 }]);
    await send(0);
    await drainQueue(workerA);
    await send(1);
    await drainQueue(workerB);
    await send(2);
    await drainQueue(workerA);
    expect(a.map((r) => [r.softCount, r.hardState])).toEqual([
      [1, "OK"],
      [0, "CRITICAL"],
    ]);
    expect(b.map((r) => [r.softCount, r.hardState])).toEqual([[2, "OK"]]);
  });

  it("a batch of several shards forgets what it remembered of the one another worker evaluated since, not of the others", async () => {
    // As above, with q's and p's shards (their hosts') in one batch of A: B's result for q comes between.
    const [q, p] = [`${H0}-s-q`, `${H1}-s-p`];
    const org = await orgWithItems([
      { name: "q", host: H0, policy: policy({ kind: "constant", value: 100 }) },
      { name: "p", host: H1, policy: policy({ kind: "constant", value: 100 }) },
    ]);
    const a: EvaluationRecord[] = [];
    const workerA = newEvaluator(a, org);
    const workerB = newEvaluator(undefined, org);
    const send = (points: { key: string; i: number }[]) =>
      ingestResults(
        org,
        points.map(({ key, i }) => ({ key, ts: minute(i), value: 500 })),
      );
    await send([
      { key: q, i: 0 },
      { key: p, i: 0 },
    ]);
    expect((await workerA.runBatch()).shards).toHaveLength(2);
    await send([{ key: q, i: 1 }]);
    await drainQueue(workerB);
    await send([
      { key: q, i: 2 },
      { key: p, i: 1 },
    ]);
    a.length = 0;
    expect((await workerA.runBatch()).shards).toHaveLength(2);
    const ids = await seriesIdByKey(org);
    const of = (key: string) => a.filter((r) => r.seriesId === ids.get(key));
    // q's third problem in a row is hard (B's soft 2 read back); p's second is soft 2 (A's memory kept).
    expect(of(q).map((r) => [r.softCount, r.hardState])).toEqual([[0, "CRITICAL"]]);
    expect(of(p).map((r) => [r.softCount, r.hardState])).toEqual([[2, "OK"]]);
  });

  it("a worker taking back a shard catches up every series of it, not only those of the batch it takes it back with", async () => {
    // Each item's threshold is its own previous point (above it by 30 % is CRITICAL). Worker A
    // evaluates x and y, B their next points, then A takes the shard back with a batch of y alone:
    // x's next point must still read B's point of x as its previous one, not the one A held before.
    const previousPoint = policy({ kind: "expression", source: "$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[1] * 1" });
    const names = Array.from({ length: EVALUATION_SHARDS + 1 }, (_, i) => `h-s-m${i}`);
    const org = await orgWithItems(names.map((name) => ({ name: name.slice(4), policy: previousPoint })));
    const send = (points: { key: string; i: number; value: number }[]) =>
      ingestResults(
        org,
        points.map(({ key, i, value }) => ({ key, ts: minute(i), value })),
      );
    const a: EvaluationRecord[] = [];
    const workerA = newEvaluator(a, org);
    const workerB = newEvaluator(undefined, org);
    await send(names.map((key) => ({ key, i: 0, value: 10 })));
    await drainQueue(workerA);
    // Two series of one shard (a host's series share its shard).
    const shards = [...(await seriesShards(db, org))];
    const [x, y] = shards.filter(([key, shard]) => shards.some(([other, s]) => other !== key && s === shard)).map(([key]) => key);
    await send([
      { key: x!, i: 1, value: 100 },
      { key: y!, i: 1, value: 100 },
    ]);
    await drainQueue(workerB);
    await send([{ key: y!, i: 2, value: 100 }]);
    await drainQueue(workerA);
    await send([{ key: x!, i: 2, value: 100 }]);
    a.length = 0;
    await drainQueue(workerA);
    // Against the 10 A held before B's point, 100 would be CRITICAL.
    expect(a.map((r) => [r.ts, r.value, r.threshold, r.state])).toEqual([[minute(2), 100, 100, "OK"]]);
  });

  it("a failed batch leaves no remembered state behind: the retry evaluates from what was committed", async () => {
    const org = await orgWithItems([{ name: "f", policy: policy({ kind: "constant", value: 100 }) }]);
    const seen: EvaluationRecord[] = [];
    let failNext = true;
    const evaluator = new Evaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), {
      beforeWrite: async ({ records }) => {
        if (failNext) {
          failNext = false;
          throw new Error("alert write failed");
        }
        seen.push(...records);
        return undefined;
      },
    });
    await ingestResults(org, [{ key: "h-s-f", ts: minute(0), value: 500 }]);
    await expect(evaluator.runBatch()).rejects.toThrow("alert write failed");
    // The failed claim is deferred with backoff; make it due again as time would.
    await execute(db, `UPDATE evaluation_queue SET claimed_until = NULL WHERE organization_id = $1`, [org]);
    await drainQueue(evaluator);
    expect(seen.map((r) => [r.ts, r.softCount])).toEqual([[minute(0), 1]]);
  });

  it("a failed batch leaves none of its points in the window: the retry reads the history as before it", async () => {
    // The threshold is the previous point: the retry of 1 and 2 must read 0 and 1, not what the failed attempt appended.
    const org = await orgWithItems([{ name: "p", policy: policy({ kind: "expression", source: "h-s-p[1] * 1" }) }]);
    const seen: EvaluationRecord[] = [];
    let fail = false;
    const evaluator = new Evaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), {
      beforeWrite: async ({ records, organizationId }) => {
        if (organizationId !== org) return undefined;
        if (fail) {
          fail = false;
          throw new Error("alert write failed");
        }
        seen.push(...records);
        return undefined;
      },
    });
    const send = (values: number[], from: number) =>
      ingestResults(
        org,
        values.map((value, i) => ({ key: "h-s-p", ts: minute(from + i), value })),
      );
    await send([10], 0);
    await drainQueue(evaluator);
    await send([100, 100], 1);
    fail = true;
    await expect(drainQueue(evaluator)).rejects.toThrow("alert write failed");
    await execute(db, `UPDATE evaluation_queue SET claimed_until = NULL WHERE organization_id = $1`, [org]);
    seen.length = 0;
    await drainQueue(evaluator);
    expect(seen.map((r) => [r.ts, r.threshold])).toEqual([
      [minute(1), 10],
      [minute(2), 100],
    ]);
  });

  it("evaluate every queued point exactly once, in time order per series", async () => {
    const org = await orgWithItems(
      Array.from({ length: 5 }, (_, i) => ({ name: `m${i}`, policy: policy({ kind: "constant", value: 100 }) })),
    );
    const batches = 40;
    for (let b = 0; b < batches; b++) {
      await ingestResults(
        org,
        Array.from({ length: 5 }, (_, i) => ({ key: `h-s-m${i}`, ts: minute(b), value: b % 7 === 0 ? 500 : 50 })),
      );
    }
    const seen: EvaluationRecord[] = [];
    const workers = Array.from(
      { length: 3 },
      () =>
        new Evaluator(
          db,
          new OrganizationCache(db, 0),
          new OrganizationWindows(),
          { beforeWrite: async ({ records }) => void seen.push(...records) },
          { maxQueueRows: 3 },
        ),
    );
    await Promise.all(workers.map((w) => drainQueue(w)));
    expect(seen).toHaveLength(batches * 5);
    const perSeries = new Map<number, number[]>();
    for (const r of seen) perSeries.set(r.seriesId, [...(perSeries.get(r.seriesId) ?? []), r.ts]);
    for (const ts of perSeries.values()) expect(ts).toEqual(Array.from({ length: batches }, (_, b) => minute(b)));
  });
});
