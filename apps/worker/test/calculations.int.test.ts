import type { Database } from "@tidemark/db/client";
import { mergeConfiguration } from "@tidemark/db/configuration";
import { type CalculationService, claimCalculationRuns, finishCalculationRuns, loadCalculationServices } from "@tidemark/db/evaluation";
import { deployDraft } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { createTestOrg, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import type { Configuration } from "@tidemark/model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CalculationScheduler, FIRST_LOOK_BACK_MS, type ResultStoreSplit } from "../src/calculations.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { nextDue, parseSchedule } from "../src/schedule.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/** bischeck:// calculations run once per due instant, however many workers there are. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
const CALCULATIONS = ["avg0", "avg1", "avg2"];

const item = (name: string, execStatement: string) => ({
  name,
  description: "",
  execStatement,
  thresholdClass: null,
  serviceItemClass: null,
  cacheMaxCount: null,
  policy: null,
});

function configuration(): Configuration {
  return {
    hosts: [
      {
        name: "h",
        alias: null,
        description: "",
        services: [
          { name: "src", description: "", schedules: ["1M"], url: "shell://localhost", sendServiceData: true, items: [item("v", "x")] },
          ...CALCULATIONS.map((name) => ({
            name,
            description: "",
            schedules: ["1M"],
            url: "bischeck://cache",
            sendServiceData: true,
            items: [item("avg", "avg(h-src-v[0:2])")],
          })),
        ],
      },
    ],
  };
}

/** An organisation with a source series of three points and three calculations averaging them. */
async function organization(values = [10, 20, 60]): Promise<{ org: string; services: CalculationService[] }> {
  const { organization, user } = await createTestOrg(db);
  await mergeConfiguration(db, { organizationId: organization.id, userId: user.id }, configuration());
  await deployDraft(db, { organizationId: organization.id, createdBy: null, message: "calculations" });
  await ingestBatch(db, {
    organizationId: organization.id,
    agentId: null,
    batch: { batchId: `b-${crypto.randomUUID()}`, results: values.map((value, i) => ({ key: "h-src-v", ts: T0 + i * 1000, value })) },
  });
  const services = (await loadCalculationServices(db)).filter((s) => s.organizationId === organization.id);
  expect(services.map((s) => s.service).sort()).toEqual(CALCULATIONS);
  return { org: organization.id, services };
}

const scheduler = () => new CalculationScheduler(db, new OrganizationCache(db, 0), new OrganizationWindows(), () => {});
/** A scheduler (of `Scheduler`, a subclass under test) storing a tick's results as `split` says. */
const splitting = (split: ResultStoreSplit, Scheduler = CalculationScheduler) =>
  new Scheduler(db, new OrganizationCache(db, 0), new OrganizationWindows(), () => {}, 10_000, split);

async function stored(org: string) {
  const rows = await queryRows(
    db,
    `SELECT s.key, p.ts, p.value FROM metric_points p JOIN series s ON s.id = p.series_id
     WHERE s.organization_id = $1 AND s.key LIKE 'h-avg%' ORDER BY s.key, p.ts`,
    [org],
  );
  return rows.map((r) => [r.key, r.ts.getTime(), r.value]);
}

async function lease(serviceId: string) {
  const rows = await queryRows(db, `SELECT due_at, finished_at IS NOT NULL AS finished FROM calculation_leases WHERE service_id = $1`, [
    serviceId,
  ]);
  return rows.map((r) => ({ due: r.due_at.getTime(), finished: r.finished }));
}

describe("calculations run as deployed", () => {
  it("a saved expression and schedule run only once deployed", async () => {
    const { org } = await organization();
    const exec = async () =>
      (await loadCalculationServices(db))
        .filter((s) => s.organizationId === org)
        .flatMap((s) => s.items.map((i) => [s.service, s.schedules.join(","), i.execStatement]))
        .sort();
    const deployed = await exec();
    await execute(
      db,
      `UPDATE service_items SET exec_statement = 'max(h-src-v[0:2])' WHERE organization_id = $1 AND series_key LIKE 'h-avg%'`,
      [org],
    );
    await execute(db, `UPDATE services SET schedules = '{5M}' WHERE organization_id = $1 AND url LIKE 'bischeck://%'`, [org]);
    expect(await exec()).toEqual(deployed);
    await deployDraft(db, { organizationId: org, createdBy: null, message: "max every 5 minutes" });
    expect(new Set((await exec()).map(([, schedules, source]) => `${schedules} ${source}`))).toEqual(new Set(["5M max(h-src-v[0:2])"]));
  });
});

describe("calculations read again only when the deployed configuration changed", () => {
  it("looks at the revision every tick, reads the calculations once, and again after a deployment, whose expression then runs", async () => {
    const { org } = await organization();
    // Every tick looks at the revision (reloadEveryMs 0).
    const s = new CalculationScheduler(db, new OrganizationCache(db, 0), new OrganizationWindows(), () => {}, 0);
    await s.tick(T0);
    await s.tick(T0 + 60_000);
    expect(s.stats.loads).toBe(1);
    const resultsAfter = async (ms: number) => (await stored(org)).filter(([, ts]) => ts > ms).map(([key, , value]) => [key, value]);
    expect(await resultsAfter(T0)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, 30]));

    await execute(
      db,
      `UPDATE service_items SET exec_statement = 'max(h-src-v[0:2])', updated_at = now() WHERE organization_id = $1 AND series_key LIKE 'h-avg%'`,
      [org],
    );
    await deployDraft(db, { organizationId: org, createdBy: null, message: "max" });
    await s.tick(T0 + 120_000);
    expect(s.stats.loads).toBe(2);
    expect(await resultsAfter(T0 + 60_000)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, 60]));
    await s.tick(T0 + 121_000);
    expect(s.stats.loads).toBe(2);
  });

  it("runs a calculation at its very due instant (the scheduler skips a service until then, not a millisecond longer)", async () => {
    const { org, services } = await organization();
    const s = scheduler();
    await s.tick(T0);
    const first = services[0]!;
    const due = nextDue(parseSchedule(first.schedules[0]!, first.serviceId, first.timeZone), T0)!;
    await s.tick(due);
    expect(await stored(org)).toContainEqual([`h-${first.service}-avg`, due, 30]);
  });
});

describe("calculations across workers", () => {
  it("two workers given the same due runs: each runs once, its result stored once", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    const runs = services.map((service) => ({ service, dueMs: due }));
    const [a, b] = [scheduler(), scheduler()];
    const won = await Promise.all([a.runAll(runs), b.runAll(runs)]);
    expect(won[0]! + won[1]!).toBe(3);
    expect(a.stats.failures + b.stats.failures).toBe(0);
    expect(await stored(org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, 30]));
    // Done is done: the same instant is not run again, a later one is.
    expect(await a.runAll(runs)).toBe(0);
    expect(await b.runAll(services.map((service) => ({ service, dueMs: due + 60_000 })))).toBe(3);
    expect((await stored(org)).length).toBe(6);
  });
});

describe("a worker (re)started moments after a run fell due", () => {
  /** services[0]'s first due instant after the source's three points. */
  function firstDue(services: CalculationService[]) {
    const first = services[0]!;
    return { key: `h-${first.service}-avg`, due: nextDue(parseSchedule(first.schedules[0]!, first.serviceId, first.timeZone), T0 + 2000)! };
  }

  it("still makes the run at its first look", async () => {
    const { org, services } = await organization();
    const { key, due } = firstDue(services);
    // The worker's first look comes 5 s after the due instant (it was starting).
    await scheduler().tick(due + 5000);
    expect((await stored(org)).filter(([k]) => k === key)).toEqual([[key, due, 30]]);
  });

  it("does not make it again when its previous life (or another worker) made it", async () => {
    const { org, services } = await organization();
    const { key, due } = firstDue(services);
    await scheduler().tick(due);
    expect((await stored(org)).filter(([k]) => k === key)).toEqual([[key, due, 30]]);
    const restarted = scheduler();
    await restarted.tick(due + 5000);
    expect((await stored(org)).filter(([k]) => k === key)).toEqual([[key, due, 30]]);
    expect(await lease(services[0]!.serviceId)).toEqual([{ due, finished: true }]);
  });

  it("makes only the latest run of the minute it reaches back, not the one at its edge", async () => {
    const { org, services } = await organization();
    const { key, due } = firstDue(services);
    // The schedule is 1M: `due` is a minute before the first look, the next run at it.
    await scheduler().tick(due + FIRST_LOOK_BACK_MS);
    expect((await stored(org)).filter(([k]) => k === key)).toEqual([[key, due + 60_000, 30]]);
  });
});

describe("calculations across organisations", () => {
  it("two organisations with the same series keys each read their own points through one worker", async () => {
    const a = await organization([10, 20, 60]);
    const b = await organization([1, 2, 3]);
    const worker = scheduler();
    const due = T0 + 60_000;
    await worker.runAll(a.services.map((service) => ({ service, dueMs: due })));
    await worker.runAll(b.services.map((service) => ({ service, dueMs: due })));
    expect(worker.stats.failures).toBe(0);
    expect(await stored(a.org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, 30]));
    expect(await stored(b.org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, 2]));
  });
});

describe("calculation leases", () => {
  const at = (minute: number) => new Date(T0 + minute * 60_000);
  /** The organisation's runs: a run of a service due at `at(minute)`. */
  const runsOf = (organizationId: string) => (serviceId: string, minute: number) => ({ organizationId, serviceId, dueAt: at(minute) });

  /** The runs' leases by service: finished or not, and the error recorded. */
  async function leasesOf(services: CalculationService[]) {
    const rows = await queryRows<{ service_id: string; finished: boolean; error: string | null }>(
      db,
      `SELECT service_id, finished_at IS NOT NULL AS finished, error FROM calculation_leases WHERE service_id = ANY($1::uuid[])`,
      [services.map((s) => s.serviceId)],
    );
    return new Map(rows.map((r) => [r.service_id, { finished: r.finished, error: r.error }]));
  }

  it("runs end with their results' statement: each finished, a failing item's error recorded, its result stored as null", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    const failing = services[0]!;
    const broken = services.map((s) => (s === failing ? { ...s, items: s.items.map((it) => ({ ...it, execStatement: "avg((" })) } : s));
    const worker = scheduler();
    expect(await worker.runAll(broken.map((service) => ({ service, dueMs: due })))).toBe(3);
    expect(worker.stats).toEqual({ runs: 2, failures: 1, loads: 0 });
    expect(await stored(org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, name === failing.service ? null : 30]));
    const leases = await leasesOf(services);
    expect(leases.size).toBe(3);
    for (const [serviceId, l] of leases) {
      expect(l.finished).toBe(true);
      if (serviceId === failing.serviceId) expect(l.error).toMatch(new RegExp(`^h-${failing.service}-avg: `));
      else expect(l.error).toBeNull();
    }
  });

  /** The points of each ingest batch an organisation's calculations stored. */
  async function calculationBatches(org: string) {
    const rows = await queryRows<{ point_count: number }>(
      db,
      `SELECT point_count FROM ingest_batches WHERE organization_id = $1 AND batch_id LIKE 'calc:%' ORDER BY point_count`,
      [org],
    );
    return rows.map((r) => r.point_count);
  }

  it("a tick of many results is stored as two statements at once, each with whole runs and their leases' end", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    let inFlight = 0;
    let mostInFlight = 0;
    class CountingStore extends CalculationScheduler {
      protected override async storeResults(...args: Parameters<CalculationScheduler["storeResults"]>): Promise<void> {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await super.storeResults(...args);
        } finally {
          inFlight--;
        }
      }
    }
    const worker = splitting({ fromResults: 3, parts: 2 }, CountingStore);
    expect(await worker.runAll(services.map((service) => ({ service, dueMs: due })))).toBe(3);
    expect(await stored(org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, 30]));
    expect(await calculationBatches(org)).toEqual([1, 2]);
    // Both statements were on their way before either came back.
    expect(mostInFlight).toBe(2);
    for (const l of (await leasesOf(services)).values()) expect(l).toEqual({ finished: true, error: null });

    // Below the split's size, one statement.
    const { org: small, services: few } = await organization();
    const one = splitting({ fromResults: 4, parts: 2 });
    await one.runAll(few.map((service) => ({ service, dueMs: due })));
    expect(await calculationBatches(small)).toEqual([3]);
  });

  it("a part whose statement fails ends its runs with the error; the other part's runs stay stored and finished", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    const failing = new Set<string>();
    class FailingStore extends CalculationScheduler {
      protected override async storeResults(...args: Parameters<CalculationScheduler["storeResults"]>): Promise<void> {
        const [, part] = args;
        if (part.length === 1) {
          for (const { run } of part) failing.add(run.service.serviceId);
          throw new Error("connection lost");
        }
        return super.storeResults(...args);
      }
    }
    const worker = splitting({ fromResults: 3, parts: 2 }, FailingStore);
    expect(await worker.runAll(services.map((service) => ({ service, dueMs: due })))).toBe(3);
    expect(failing.size).toBe(1);
    expect(worker.stats).toEqual({ runs: 2, failures: 1, loads: 0 });
    const lost = services.find((s) => failing.has(s.serviceId))!;
    expect(await stored(org)).toEqual(CALCULATIONS.filter((name) => name !== lost.service).map((name) => [`h-${name}-avg`, due, 30]));
    const leases = await leasesOf(services);
    for (const s of services)
      expect(leases.get(s.serviceId)).toEqual({ finished: true, error: failing.has(s.serviceId) ? "connection lost" : null });
  });

  it("a due instant is won once while its lease holds, and taken over only when it lapsed unfinished", async () => {
    const { org, services } = await organization();
    const run = runsOf(org);
    const [s1, s2] = services.map((s) => s.serviceId);
    expect(await claimCalculationRuns(db, [run(s1!, 1)], 60_000)).toHaveLength(1);
    expect(await claimCalculationRuns(db, [run(s1!, 1)], 60_000)).toEqual([]);

    // A lease that has already lapsed (its worker died): the next worker takes the run over.
    expect(await claimCalculationRuns(db, [run(s2!, 1)], -1000)).toHaveLength(1);
    expect(await claimCalculationRuns(db, [run(s2!, 1)], -1000)).toEqual([run(s2!, 1)]);
    await finishCalculationRuns(db, [{ ...run(s2!, 1), error: null }]);
    expect(await claimCalculationRuns(db, [run(s2!, 1)], 60_000)).toEqual([]);
    expect(await lease(s2!)).toEqual([{ due: at(1).getTime(), finished: true }]);
  });

  it("runs go forward: an earlier instant is refused, a later one replaces a run still in flight", async () => {
    const { org, services } = await organization();
    const run = runsOf(org);
    const [s1, s2] = services.map((s) => s.serviceId);
    await claimCalculationRuns(db, [run(s1!, 2)], 60_000);
    expect(await claimCalculationRuns(db, [run(s1!, 1)], -1000)).toEqual([]);
    expect(await claimCalculationRuns(db, [run(s1!, 3)], 60_000)).toEqual([run(s1!, 3)]);
    // The run at 2 finishing late does not mark the one at 3 done.
    await finishCalculationRuns(db, [{ ...run(s1!, 2), error: null }]);
    expect(await lease(s1!)).toEqual([{ due: at(3).getTime(), finished: false }]);

    // A service given twice in one claim keeps its latest instant.
    expect(await claimCalculationRuns(db, [run(s2!, 5), run(s2!, 4)], 60_000)).toEqual([run(s2!, 5)]);
  });

  it("a service's lease goes with the service", async () => {
    const { org, services } = await organization();
    const run = runsOf(org);
    const s1 = services[0]!.serviceId;
    await claimCalculationRuns(db, [run(s1, 1)], 60_000);
    await execute(db, `DELETE FROM services WHERE id = $1`, [s1]);
    expect(await lease(s1)).toEqual([]);
  });
});

describe("run-after schedules", () => {
  it("run after a service an agent runs, in chains of any depth, once per result of the service they follow", async () => {
    const { organization, user } = await createTestOrg(db);
    const calc = (name: string, after: string) => ({
      name,
      description: "",
      schedules: [`after:${after}`],
      url: "bischeck://cache",
      sendServiceData: true,
      items: [item("avg", "avg(chain-src-v[0:1])")],
    });
    await mergeConfiguration(
      db,
      { organizationId: organization.id, userId: user.id },
      {
        hosts: [
          {
            name: "chain",
            alias: null,
            description: "",
            services: [
              { name: "src", description: "", schedules: ["1M"], url: "shell://localhost", sendServiceData: true, items: [item("v", "x")] },
              calc("first", "chain-src"),
              calc("second", "chain-first"),
              calc("third", "chain-second"),
            ],
          },
        ],
      },
    );
    await deployDraft(db, { organizationId: organization.id, createdBy: null, message: "run-after chain" });
    const send = (ts: number, value: number) =>
      ingestBatch(db, {
        organizationId: organization.id,
        agentId: null,
        batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: "chain-src-v", ts, value }] },
      });
    await send(T0, 10);
    const calculated = async () =>
      (
        await queryRows<{ key: string; ts: Date; value: number }>(
          db,
          `SELECT s.key, p.ts, p.value FROM metric_points p JOIN series s ON s.id = p.series_id
           WHERE s.organization_id = $1 AND s.key <> 'chain-src-v' ORDER BY s.key, p.ts`,
          [organization.id],
        )
      ).map((r) => [r.key, r.ts.getTime(), r.value]);
    // (The scheduler serves every organisation in this database: only this one's results are looked at.)
    const s = scheduler();
    // The first look only learns where the agent's service stands.
    await s.tick(T0 + 1000);
    expect(await calculated()).toEqual([]);
    await send(T0 + 60_000, 20);
    await s.tick(T0 + 61_000);
    const once = ["chain-first-avg", "chain-second-avg", "chain-third-avg"].map((key) => [key, T0 + 60_000, 15]);
    expect(await calculated()).toEqual(once);
    // Nothing new from the agent: nothing runs.
    await s.tick(T0 + 62_000);
    expect(await calculated()).toEqual(once);
  });
});
