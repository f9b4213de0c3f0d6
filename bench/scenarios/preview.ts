import type { Database } from "@tidemark/db/client";
import { mergeConfiguration } from "@tidemark/db/configuration";
import { ensureSeries, insertPoints, previewItem, refreshAggregates } from "@tidemark/db/metrics";
import { prng } from "@tidemark/db/seed";
import { testPrisma } from "@tidemark/db/testing";
import type { HourEntry, ThresholdPolicy } from "@tidemark/thresholds";
import { benchActor } from "../lib/fixtures.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The preview scenario (issue 5): the server side of the threshold preview over 30 days of
 * 1-minute data (43 200 results judged, a chart of 1 200 buckets), for a constant 24-hour policy
 * and for Bischeck's "same time last week" expression policy, which also reads a week more of
 * history. Goal: < 300 ms per 30-day preview.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const RUNS = 10;
const GOAL_MS = 300;

const everyHour = (f: (h: number) => HourEntry): HourEntry[] => Array.from({ length: 24 }, (_, h) => f(h));

function policy(entries: HourEntry[], calcMethod: ">" | "<"): ThresholdPolicy {
  return {
    periods: [{ months: [], weeks: [], calcMethod, warning: 10, critical: 30, hours: { entries, levels: Array(24).fill(null) } }],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "UTC",
  };
}

const level = (h: number) => 200 + 150 * Math.sin(((h - 6) / 24) * 2 * Math.PI);
const CONSTANT = policy(
  everyHour((h) => ({ kind: "constant", value: Math.round(level(h) * 1.3) })),
  "<",
);
const SELF = "$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$";
const LAST_WEEK = policy(
  everyHour(() => ({ kind: "expression", source: `avg(${SELF}[-167H], ${SELF}[-168H], ${SELF}[-169H])` })),
  ">",
);

async function seed(db: Database, now: number) {
  const organization = await testPrisma(db).organization.create({ data: { slug: `bench-preview-${now}`, name: "Preview bench" } });
  const item = (name: string, p: ThresholdPolicy) => ({
    name,
    description: "",
    execStatement: "bench",
    thresholdClass: null,
    serviceItemClass: null,
    cacheMaxCount: null,
    policy: p,
  });
  await mergeConfiguration(db, benchActor(organization.id), {
    hosts: [
      {
        name: "bench",
        alias: null,
        description: "",
        services: [
          {
            name: "svc",
            description: "",
            schedules: ["1M"],
            url: "shell://bench",
            sendServiceData: true,
            items: [item("value", CONSTANT), item("lastweek", LAST_WEEK)],
          },
        ],
      },
    ],
  });
  const ids = await ensureSeries(db, organization.id, ["bench-svc-value", "bench-svc-lastweek"]);
  const random = prng(7);
  const points = [];
  // 37 days: the 30-day window plus the week the "last week" expression reaches back.
  for (let ts = now - 37 * DAY; ts < now; ts += MINUTE) {
    const h = new Date(ts).getUTCHours() + new Date(ts).getUTCMinutes() / 60;
    const value = level(h) * (0.9 + 0.2 * random()) * (random() < 0.0005 ? 3 : 1);
    points.push({ seriesId: ids.get("bench-svc-value") as number, ts: new Date(ts), value });
    points.push({ seriesId: ids.get("bench-svc-lastweek") as number, ts: new Date(ts), value });
  }
  const t0 = performance.now();
  await insertPoints(db, points);
  const insertMs = performance.now() - t0;
  await refreshAggregates(db);
  const items = await testPrisma(db).serviceItem.findMany({ where: { organizationId: organization.id }, select: { id: true, name: true } });
  return { organizationId: organization.id, items: new Map(items.map((i) => [i.name, i.id])), points: points.length, insertMs };
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN) * 10) / 10;
  return { p50Ms: at(50), p95Ms: at(95), maxMs: at(100) };
}

async function measure(db: Database, organizationId: string, itemId: string, days: number, now: number) {
  const input = { itemId, from: new Date(now - days * DAY), to: new Date(now), draft: null };
  await previewItem(db, organizationId, input);
  const total: number[] = [];
  const meta: number[] = [];
  const history: number[] = [];
  const compute: number[] = [];
  let last = await previewItem(db, organizationId, input);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await previewItem(db, organizationId, input);
    total.push(performance.now() - t0);
    meta.push(last.timings.metaMs);
    history.push(last.timings.historyMs);
    compute.push(last.timings.computeMs);
  }
  return {
    ...stats(total),
    metaP50Ms: stats(meta).p50Ms,
    historyP50Ms: stats(history).p50Ms,
    computeP50Ms: stats(compute).p50Ms,
    results: last.draft?.summary.results ?? 0,
    chartPoints: last.points.length,
    alerts: last.draft?.summary.alerts ?? 0,
    resolution: last.resolution,
  };
}

export const scenario: BenchScenario = {
  name: "preview",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("the preview scenario needs a database");
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const seeded = await seed(db, now);
    log(`seeded ${seeded.points} points in ${Math.round(seeded.insertMs)} ms`);
    const value = seeded.items.get("value") as string;
    const lastWeek = seeded.items.get("lastweek") as string;
    const figures = {
      goalMs: GOAL_MS,
      runs: RUNS,
      constant30d: await measure(db, seeded.organizationId, value, 30, now),
      constant7d: await measure(db, seeded.organizationId, value, 7, now),
      constant24h: await measure(db, seeded.organizationId, value, 1, now),
      lastWeekExpression30d: await measure(db, seeded.organizationId, lastWeek, 30, now),
      constant90dHourly: await measure(db, seeded.organizationId, value, 90, now),
    };
    log(
      `30-day preview p50 ${figures.constant30d.p50Ms} ms (expression policy ${figures.lastWeekExpression30d.p50Ms} ms); goal < ${GOAL_MS} ms`,
    );
    return {
      ...figures,
      seededPoints: seeded.points,
      medianMeetsGoal: figures.constant30d.p50Ms < GOAL_MS && figures.lastWeekExpression30d.p50Ms < GOAL_MS,
      p95MeetsGoal: figures.constant30d.p95Ms < GOAL_MS && figures.lastWeekExpression30d.p95Ms < GOAL_MS,
    };
  },
};
