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

/** The organisation's calculation claims: due instant, revision, whether finished, the errors recorded. */
async function claims(org: string) {
  const rows = await queryRows(
    db,
    `SELECT due_at, revision, finished_at IS NOT NULL AS finished, errors FROM calculation_claims WHERE organization_id = $1 ORDER BY due_at, revision`,
    [org],
  );
  return rows.map((r) => ({ due: r.due_at.getTime(), revision: r.revision, finished: r.finished, errors: r.errors }));
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
    // What the restarted worker stores (it would store nothing twice anyway: ingest skips stored points).
    const storedAgain: string[] = [];
    class Recording extends CalculationScheduler {
      protected override async storeResults(...args: Parameters<CalculationScheduler["storeResults"]>): Promise<void> {
        for (const { results } of args[1]) for (const r of results) storedAgain.push(`${r.key}@${r.ts}`);
        return super.storeResults(...args);
      }
    }
    const restarted = new Recording(db, new OrganizationCache(db, 0), new OrganizationWindows(), () => {});
    await restarted.tick(due + 5000);
    expect(storedAgain).not.toContain(`${key}@${due}`);
    expect((await stored(org)).filter(([k]) => k === key)).toEqual([[key, due, 30]]);
    expect((await claims(org)).filter((c) => c.due === due)).toEqual([{ due, revision: expect.any(String), finished: true, errors: null }]);
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

describe("calculation results stored by series id", () => {
  it("refuses, as the ingest by key does, the result of an item the draft removed: read before the removal or after it", async () => {
    const { org, services } = await organization();
    const runs = (dueMs: number) => services.map((service) => ({ service, dueMs }));
    // This worker reads the configuration once: its series ids are of the revision before the removal.
    const before = new CalculationScheduler(db, new OrganizationCache(db, 3_600_000), new OrganizationWindows(), () => {});
    const [due1, due2, due3] = [T0 + 60_000, T0 + 120_000, T0 + 180_000];
    await before.runAll(runs(due1));
    // Still deployed, so it still runs, but no longer a service item: the ingest refuses its key.
    await execute(db, "DELETE FROM service_items WHERE organization_id = $1 AND series_key = 'h-avg1-avg'", [org]);
    await before.runAll(runs(due2));
    await scheduler().runAll(runs(due3));
    expect(await stored(org)).toEqual([
      ["h-avg0-avg", due1, 30],
      ["h-avg0-avg", due2, 30],
      ["h-avg0-avg", due3, 30],
      ["h-avg1-avg", due1, 30],
      ["h-avg2-avg", due1, 30],
      ["h-avg2-avg", due2, 30],
      ["h-avg2-avg", due3, 30],
    ]);
  });
});

describe("calculation claims", () => {
  const at = (minute: number) => new Date(T0 + minute * 60_000);
  /** The organisation's runs: a run of a service due at `at(minute)`, claimed with `revision`. */
  const runsOf =
    (organizationId: string) =>
    (serviceId: string, minute: number, revision = "r") => ({ organizationId, serviceId, dueAt: at(minute), revision });

  it("runs end with their claim: finished, a failing item's error recorded in it, its result stored as null", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    const failing = services[0]!;
    const broken = services.map((s) => (s === failing ? { ...s, items: s.items.map((it) => ({ ...it, execStatement: "avg((" })) } : s));
    const worker = scheduler();
    expect(await worker.runAll(broken.map((service) => ({ service, dueMs: due })))).toBe(3);
    expect(worker.stats).toEqual({ runs: 2, failures: 1, loads: 0 });
    expect(await stored(org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, name === failing.service ? null : 30]));
    expect(await claims(org)).toEqual([
      {
        due,
        revision: "",
        finished: true,
        errors: { [failing.serviceId]: expect.stringMatching(new RegExp(`^h-${failing.service}-avg: `)) },
      },
    ]);
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

  it("a tick of many results is stored as two statements at once, each with whole runs", async () => {
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
    expect(await claims(org)).toEqual([{ due, revision: "", finished: true, errors: null }]);

    // Below the split's size, one statement.
    const { org: small, services: few } = await organization();
    const one = splitting({ fromResults: 4, parts: 2 });
    await one.runAll(few.map((service) => ({ service, dueMs: due })));
    expect(await calculationBatches(small)).toEqual([3]);
  });

  it("a part's statement goes out as soon as the part is computed, while the next part is computed", async () => {
    const { org, services } = await organization();
    const due = T0 + 60_000;
    const steps: string[] = [];
    class Recording extends CalculationScheduler {
      protected override results(...args: Parameters<CalculationScheduler["results"]>) {
        steps.push(`compute ${args[1].service.service}`);
        return super.results(...args);
      }
      protected override async storeResults(...args: Parameters<CalculationScheduler["storeResults"]>): Promise<void> {
        steps.push(`store ${args[1].map(({ run }) => run.service.service).join(" ")}`);
        return super.storeResults(...args);
      }
    }
    const worker = splitting({ fromResults: 3, parts: 2 }, Recording);
    const runs = services.map((service) => ({ service, dueMs: due }));
    expect(await worker.runAll(runs)).toBe(3);
    const [first, second, third] = runs.map((r) => r.service.service);
    // Parts of about as many results (splitByResults): the first two runs, then the third.
    expect(steps).toEqual([`compute ${first}`, `compute ${second}`, `store ${first} ${second}`, `compute ${third}`, `store ${third}`]);
    expect(await stored(org)).toEqual(CALCULATIONS.map((name) => [`h-${name}-avg`, due, 30]));
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
    expect(await claims(org)).toEqual([{ due, revision: "", finished: true, errors: { [lost.serviceId]: "connection lost" } }]);
  });

  it("an organisation's runs due at one instant are one claim: won once while it holds, taken over only when it lapsed unfinished", async () => {
    const { org, services } = await organization();
    const run = runsOf(org);
    const [s1, s2, s3] = services.map((s) => s.serviceId);
    expect(await claimCalculationRuns(db, [run(s1!, 1), run(s2!, 1)], 60_000)).toHaveLength(2);
    // The instant is claimed, whichever of its runs another worker brings.
    expect(await claimCalculationRuns(db, [run(s3!, 1)], 60_000)).toEqual([]);
    // Another instant is another claim: only its runs are won.
    expect(await claimCalculationRuns(db, [run(s1!, 2), run(s3!, 1)], 60_000)).toEqual([run(s1!, 2)]);

    // A claim that has already lapsed (its worker died): the next worker takes the runs over.
    expect(await claimCalculationRuns(db, [run(s2!, 3)], -1000)).toHaveLength(1);
    expect(await claimCalculationRuns(db, [run(s2!, 3)], -1000)).toEqual([run(s2!, 3)]);
    await finishCalculationRuns(db, [{ ...run(s2!, 3), error: null }]);
    expect(await claimCalculationRuns(db, [run(s2!, 3)], -1000)).toEqual([]);
    expect((await claims(org)).map((c) => [c.due, c.finished])).toEqual([
      [at(1).getTime(), false],
      [at(2).getTime(), false],
      [at(3).getTime(), true],
    ]);
  });

  it("two workers claiming the same instants of several organisations at once, in opposite orders, share them out: each won once", async () => {
    const orgs = [await organization(), await organization(), await organization()];
    for (let round = 0; round < 10; round++) {
      const runs = orgs.flatMap(({ org, services }) =>
        services.flatMap((s, i) => [0, 1].map((k) => runsOf(org)(s.serviceId, round * 10 + i * 2 + k))),
      );
      const [a, b] = await Promise.all([claimCalculationRuns(db, runs, 60_000), claimCalculationRuns(db, [...runs].reverse(), 60_000)]);
      expect(a.length + b.length).toBe(runs.length);
      const key = (r: (typeof runs)[number]) => `${r.serviceId}@${r.dueAt.getTime()}`;
      expect(new Set([...a, ...b].map(key)).size).toBe(runs.length);
    }
  });

  it("a worker that read another deployment claims the instant for its own calculations; the errors of its runs go in its claim", async () => {
    const { org, services } = await organization();
    const run = runsOf(org);
    const [s1, s2] = services.map((s) => s.serviceId);
    expect(await claimCalculationRuns(db, [run(s1!, 1, "before")], 60_000)).toHaveLength(1);
    expect(await claimCalculationRuns(db, [run(s1!, 1, "after"), run(s2!, 1, "after")], 60_000)).toHaveLength(2);
    await finishCalculationRuns(db, [
      { ...run(s1!, 1, "after"), error: null },
      { ...run(s2!, 1, "after"), error: "h-avg1-avg: unknown function" },
    ]);
    expect(await claims(org)).toEqual([
      { due: at(1).getTime(), revision: "after", finished: true, errors: { [s2!]: "h-avg1-avg: unknown function" } },
      { due: at(1).getTime(), revision: "before", finished: false, errors: null },
    ]);
  });

  it("an organisation's claims keep their revision through a draft edit and another organisation's deployment; its own deployment changes it", async () => {
    const a = await organization();
    const b = await organization();
    // Every tick looks at the deployed revision (reloadEveryMs 0) and reads the calculations again when it changed.
    const s = new CalculationScheduler(db, new OrganizationCache(db, 0), new OrganizationWindows(), () => {}, 0);
    await s.tick(T0 + 60_000);
    const revisions = async (org: string) => new Set((await claims(org)).map((c) => c.revision));
    const [ra] = [...(await revisions(a.org))];
    const [rb] = [...(await revisions(b.org))];
    expect(ra).toMatch(/^[\w-]{43}$/);
    expect(rb).not.toBe(ra);

    await execute(db, `UPDATE service_items SET description = 'edited', updated_at = now() WHERE organization_id = $1`, [a.org]);
    await execute(
      db,
      `UPDATE service_items SET exec_statement = 'max(h-src-v[0:2])', updated_at = now() WHERE organization_id = $1 AND series_key LIKE 'h-avg%'`,
      [b.org],
    );
    await deployDraft(db, { organizationId: b.org, createdBy: null, message: "max" });
    const loads = s.stats.loads;
    await s.tick(T0 + 120_000);
    expect(s.stats.loads).toBe(loads + 1);
    expect(await revisions(a.org)).toEqual(new Set([ra]));
    expect((await revisions(b.org)).size).toBe(2);
  });

  it("claims due an hour before the organisation's next claim go with it, not with another organisation's", async () => {
    const a = await organization();
    const b = await organization();
    const old = `INSERT INTO calculation_claims (organization_id, due_at, revision, claimed_until, finished_at)
                 VALUES ($1, now() - interval '61 minutes', '', now() - interval '60 minutes', now() - interval '60 minutes'),
                        ($1, now() - interval '59 minutes', '', now() - interval '58 minutes', now() - interval '58 minutes')`;
    await execute(db, old, [a.org]);
    await execute(db, old, [b.org]);
    const now = new Date();
    await claimCalculationRuns(db, [{ organizationId: a.org, serviceId: a.services[0]!.serviceId, dueAt: now, revision: "" }], 60_000);
    // The one older than an hour went; the other stayed, and the new claim is there.
    const kept = await claims(a.org);
    expect(kept).toHaveLength(2);
    expect(kept[1]!.due).toBe(now.getTime());
    expect(Date.now() - kept[0]!.due).toBeLessThan(60 * 60_000);
    expect(await claims(b.org)).toHaveLength(2);
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
