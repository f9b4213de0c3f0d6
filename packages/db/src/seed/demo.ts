import path from "node:path";
import { hashPassword } from "@tidemark/auth";
import type { Configuration, Host, ServiceItem } from "@tidemark/model";
import type { HourEntry, ThresholdPolicy } from "@tidemark/thresholds/policy";
import { actorFields, recordAudit, systemActor } from "../audit.ts";
import { type Database, prismaOf } from "../database.ts";
import { deployDraft, deploymentChange } from "../deploy.ts";
import { mergeConfiguration } from "../draft-configuration.ts";
import { queueStoredPoints } from "../evaluation.ts";
import { ensureSeries, insertPoints, refreshAggregates } from "../metrics.ts";
import { readNabSeries } from "./nab.ts";
import { dailyLevel, generatePoints, type SeriesShape } from "./synthetic.ts";

export const DEMO_USER = { email: "demo@tidemark.dev", password: "tidemark-demo", name: "Demo Operator" };
export const DEMO_ORG = { slug: "acme", name: "Acme Operations" };

const MINUTE = 60_000;
const DAY = 86_400_000;
/**
 * The synthetic history is per minute over its last days (the three the worker evaluates at the
 * first start, and one more for what their thresholds read by index) and one point every five
 * minutes before. Per minute throughout, the seed stored 865 000 points and, with the web build
 * beside it, was the longer half of a first start (65 s of a 103-s start on a busy machine,
 * issue 22). Charts past two days read the five-minute aggregate anyway, and the last-week
 * thresholds (`[-168H]`) find the point nearest their instant.
 */
const DETAILED_DAYS = 4;
const OLDER_STEP_MS = 5 * MINUTE;
/**
 * How much of each NAB series the demo keeps: six weeks before now, what the longest preview (30
 * days) of a last-week threshold reads. All of nyc_taxi (seven months) put about 200 daily chunks
 * into metric_points for 10 000 points: 4.5 s of a quiet first start, and a plan over every chunk
 * on each list call of the embedded server (issue 22, docs/scaling.md).
 */
const NAB_DAYS = 42;

interface DemoItem {
  service: string;
  url: string;
  item: ServiceItem;
  shape: SeriesShape;
}

const constantHours = (f: (hour: number) => number | null): HourEntry[] =>
  Array.from({ length: 24 }, (_, h) => {
    const v = f(h);
    return v === null ? null : { kind: "constant", value: Math.round(v * 100) / 100 };
  });

/** Upper-bound policy following the daily cycle of a shape, as a person tuning it would write. */
function upperPolicy(shape: SeriesShape, margin: number, warning = 10, critical = 30): ThresholdPolicy {
  const level = (h: number) => dailyLevel(shape, h) * margin;
  return {
    periods: [
      {
        months: [],
        weeks: [
          { week: null, dayOfWeek: 1 },
          { week: null, dayOfWeek: 7 },
        ],
        calcMethod: "<",
        warning,
        critical,
        hours: { entries: constantHours((h) => level(h) * shape.weekendFactor), levels: Array(24).fill(null) },
      },
      {
        months: [],
        weeks: [],
        calcMethod: "<",
        warning,
        critical,
        hours: { entries: constantHours(level), levels: Array(24).fill(null) },
      },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "UTC",
  };
}

/** "Should be higher than the same time last week" — Bischeck's classic time-based threshold. */
function lastWeekPolicy(): ThresholdPolicy {
  const self = "$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$";
  const source = `avg(${self}[-167H], ${self}[-168H], ${self}[-169H])`;
  return {
    periods: [
      {
        months: [],
        weeks: [],
        calcMethod: ">",
        warning: 20,
        critical: 40,
        hours: { entries: Array.from({ length: 24 }, () => ({ kind: "expression", source }) as const), levels: Array(24).fill(null) },
      },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "UTC",
  };
}

function item(name: string, description: string, execStatement: string, policy: ThresholdPolicy | null): ServiceItem {
  return {
    name,
    description,
    execStatement,
    thresholdClass: "Twenty4HourThreshold",
    serviceItemClass: null,
    cacheMaxCount: null,
    policy,
  };
}

function demoFleet(now: number): { configuration: Configuration; items: Map<string, SeriesShape> } {
  const roles: { prefix: string; count: number; build: (host: string, i: number) => DemoItem[] }[] = [
    {
      prefix: "web",
      count: 8,
      build: (host, i) => {
        const latency: SeriesShape = { base: 80 + i * 5, dailyAmplitude: 140, weekendFactor: 0.7, noise: 0.12, incidents: [] };
        const requests: SeriesShape = { base: 400 + i * 30, dailyAmplitude: 2600, weekendFactor: 0.55, noise: 0.06, incidents: [] };
        if (i === 2) latency.incidents.push({ start: now - 3 * DAY + 5 * 3_600_000, minutes: 95, factor: 3.2 });
        if (i === 5) requests.incidents.push({ start: now - 5 * DAY + 13 * 3_600_000, minutes: 70, factor: 0.25 });
        const url = `https://${host}.acme.example/health`;
        return [
          {
            service: "http",
            url,
            shape: latency,
            item: item(
              "latency",
              "Response time (ms)",
              `{"check":"/usr/lib/nagios/plugins/check_http -H ${host}.acme.example -u /health","label":"time"}`,
              upperPolicy(latency, 1.35),
            ),
          },
          {
            service: "http",
            url,
            shape: requests,
            item: item(
              "requests",
              "Requests per minute",
              `{"check":"/usr/lib/nagios/plugins/check_http -H ${host}.acme.example -u /stats","label":"rpm"}`,
              lastWeekPolicy(),
            ),
          },
        ];
      },
    },
    {
      prefix: "api",
      count: 6,
      build: (host, i) => {
        const latency: SeriesShape = { base: 35 + i * 3, dailyAmplitude: 60, weekendFactor: 0.8, noise: 0.1, incidents: [] };
        const errors: SeriesShape = { base: 0.3, dailyAmplitude: 0.9, weekendFactor: 0.7, noise: 0.3, incidents: [] };
        if (i === 1) errors.incidents.push({ start: now - 1 * DAY - 2 * 3_600_000, minutes: 40, factor: 9 });
        const url = `https://${host}.acme.example/`;
        return [
          {
            service: "http",
            url,
            shape: latency,
            item: item(
              "latency",
              "p95 latency (ms)",
              `{"check":"/usr/lib/nagios/plugins/check_http -H ${host}.acme.example","label":"time"}`,
              upperPolicy(latency, 1.4),
            ),
          },
          {
            service: "http",
            url,
            shape: errors,
            item: item(
              "errorrate",
              "5xx per minute",
              `{"check":"/usr/lib/nagios/plugins/check_http -H ${host}.acme.example -u /errors","label":"errors"}`,
              upperPolicy(errors, 2.5, 50, 150),
            ),
          },
        ];
      },
    },
    {
      prefix: "db",
      count: 4,
      build: (host, i) => {
        const connections: SeriesShape = { base: 20 + i * 4, dailyAmplitude: 90, weekendFactor: 0.6, noise: 0.08, incidents: [] };
        const load: SeriesShape = { base: 0.4, dailyAmplitude: 2.4, weekendFactor: 0.6, noise: 0.15, incidents: [] };
        if (i === 0) load.incidents.push({ start: now - 9 * DAY + 3 * 3_600_000, minutes: 180, factor: 2.6 });
        const url = `postgres://monitor@${host}.acme.example/postgres`;
        return [
          {
            service: "postgres",
            url,
            shape: connections,
            item: item("connections", "Open connections", "SELECT count(*) FROM pg_stat_activity", upperPolicy(connections, 1.5)),
          },
          { service: "postgres", url, shape: load, item: item("load", "Load average (1 min)", "SELECT 1", upperPolicy(load, 1.6, 20, 60)) },
        ];
      },
    },
    {
      prefix: "cache",
      count: 4,
      build: (host) => {
        const memory: SeriesShape = { base: 2.1, dailyAmplitude: 1.4, weekendFactor: 0.85, noise: 0.04, incidents: [] };
        return [
          {
            service: "redis",
            url: `shell://${host}`,
            shape: memory,
            item: item(
              "memory",
              "Used memory (GB)",
              `{"check":"/usr/lib/nagios/plugins/check_tcp -H ${host}.acme.example -p 6379","label":"time"}`,
              upperPolicy(memory, 1.3),
            ),
          },
        ];
      },
    },
    {
      prefix: "queue",
      count: 2,
      build: (host, i) => {
        const depth: SeriesShape = { base: 10, dailyAmplitude: 220, weekendFactor: 0.4, noise: 0.2, incidents: [] };
        if (i === 1) depth.incidents.push({ start: now - 2 * DAY + 9 * 3_600_000, minutes: 55, factor: 4 });
        return [
          {
            service: "rabbitmq",
            url: `shell://${host}`,
            shape: depth,
            item: item(
              "depth",
              "Messages waiting",
              `{"check":"/usr/lib/nagios/plugins/check_dummy 0","label":"depth"}`,
              upperPolicy(depth, 1.6, 25, 75),
            ),
          },
        ];
      },
    },
  ];
  const hosts: Host[] = [];
  const shapes = new Map<string, SeriesShape>();
  for (const role of roles) {
    for (let i = 0; i < role.count; i++) {
      const hostName = `${role.prefix}${String(i + 1).padStart(2, "0")}`;
      const demoItems = role.build(hostName, i);
      const services = new Map<string, Host["services"][number]>();
      for (const d of demoItems) {
        const service = services.get(d.service) ?? {
          name: d.service,
          description: "",
          schedules: ["1M"],
          url: d.url,
          sendServiceData: true,
          items: [],
        };
        service.items.push(d.item);
        services.set(d.service, service);
        shapes.set(`${hostName}-${d.service}-${d.item.name}`, d.shape);
      }
      hosts.push({
        name: hostName,
        alias: `${hostName}.acme.example`,
        description: `${role.prefix} tier`,
        services: [...services.values()],
      });
    }
  }
  // A Bischeck-style calculation over other series, run by the worker.
  const webLatencies = Array.from({ length: 8 }, (_, i) => `web${String(i + 1).padStart(2, "0")}-http-latency[0]`).join(", ");
  hosts.push({
    name: "fleet",
    alias: null,
    description: "Calculated fleet-wide figures",
    services: [
      {
        name: "web",
        description: "Averages across the web tier",
        schedules: ["1M"],
        url: "bischeck://cache",
        sendServiceData: true,
        items: [item("avglatency", "Average latency of the web tier (ms)", `avg(${webLatencies})`, null)],
      },
    ],
  });
  return { configuration: { hosts }, items: shapes };
}

/**
 * The shape of every synthetic demo series by its key, for the demo agents that keep producing
 * live values after the seeded history (incidents placed relative to `now`, as at seeding).
 */
export function demoSeriesShapes(now = Date.now()): Map<string, SeriesShape> {
  return demoFleet(now).items;
}

/** Host name prefixes of the synthetic demo fleet. */
export const DEMO_HOST_PREFIXES = ["web", "api", "db", "cache", "queue"] as const;

const NAB_SERIES = [
  { file: "nyc_taxi.csv", host: "nyc", service: "taxi", item: "passengers", description: "NYC taxi passengers per 30 minutes (NAB)" },
  { file: "ec2_cpu_utilization_5f5533.csv", host: "aws", service: "ec2", item: "cpu", description: "EC2 CPU utilisation % (NAB)" },
  { file: "rds_cpu_utilization_cc0c53.csv", host: "aws", service: "rds", item: "cpu", description: "RDS CPU utilisation % (NAB)" },
];

export interface DemoSeedOptions {
  /** Folder holding NAB's CSV files (shared/data/nab); skipped when null. */
  nabDir: string | null;
  days?: number;
  now?: number;
  log?: (message: string) => void;
  /** The organisation to seed (the demo's own unless told). */
  organization?: { slug: string; name: string };
}

/** The system actor the audit log names for what the seed does. */
export const SEEDED_BY = "the demo seed";

/** Seeds the demo organisation once; returns false when it already exists. */
export async function seedDemo(db: Database, opts: DemoSeedOptions): Promise<boolean> {
  const org = opts.organization ?? DEMO_ORG;
  const existing = await prismaOf(db).organization.findUnique({ where: { slug: org.slug } });
  if (existing) return false;
  const log = opts.log ?? (() => {});
  const now = Math.floor((opts.now ?? Date.now()) / MINUTE) * MINUTE;
  const days = opts.days ?? 14;

  const passwordHash = await hashPassword(DEMO_USER.password);
  // The organisation, its operator and its first audit entry: the system's doing, in one transaction.
  const { organization, user } = await prismaOf(db).$transaction(async (tx) => {
    const organization = await tx.organization.create({ data: org });
    const user = await tx.user.upsert({
      where: { email: DEMO_USER.email },
      update: {},
      create: { email: DEMO_USER.email, name: DEMO_USER.name, passwordHash },
    });
    await tx.membership.create({ data: { userId: user.id, organizationId: organization.id, role: "admin" } });
    await recordAudit(tx, {
      ...actorFields(systemActor(organization.id, SEEDED_BY)),
      action: "organization.create",
      targetType: "organization",
      targetId: organization.id,
      after: { name: organization.name, slug: organization.slug, admin: user.email },
    });
    return { organization, user };
  });
  const system = systemActor(organization.id, SEEDED_BY);

  const { configuration, items } = demoFleet(now);
  const nabHosts = new Map<string, Host>();
  for (const s of NAB_SERIES) {
    const host = nabHosts.get(s.host) ?? { name: s.host, alias: null, description: "Numenta Anomaly Benchmark series", services: [] };
    host.services.push({
      name: s.service,
      description: s.description,
      schedules: [s.host === "nyc" ? "30M" : "5M"],
      url: "shell://localhost",
      sendServiceData: true,
      items: [item(s.item, s.description, "imported history", null)],
    });
    nabHosts.set(s.host, host);
  }
  if (opts.nabDir) configuration.hosts.push(...nabHosts.values());
  const summary = await mergeConfiguration(db, system, configuration);
  log(`demo configuration: ${summary.hosts} hosts, ${summary.services} services, ${summary.items} items`);
  // The demo's thresholds are what runs: version 1, which the worker evaluates.
  const message = "the demo configuration";
  await deployDraft(
    db,
    { organizationId: organization.id, createdBy: user.id, message },
    { actor: system, describe: deploymentChange({ message, rollbackOf: null }) },
  );

  const seriesIds = await ensureSeries(db, organization.id, [...items.keys()]);
  let total = 0;
  const started = Date.now();
  let seed = 1;
  const detailedFrom = now - Math.min(days, DETAILED_DAYS) * DAY;
  for (const [key, shape] of items) {
    const seriesId = seriesIds.get(key);
    if (seriesId === undefined) continue;
    const seriesSeed = seed++;
    const points = [
      ...generatePoints(shape, { from: now - days * DAY, to: detailedFrom, stepMs: OLDER_STEP_MS, seed: seriesSeed }),
      ...generatePoints(shape, { from: detailedFrom, to: now, stepMs: MINUTE, seed: seriesSeed }),
    ].map((p) => ({ seriesId, ts: new Date(p.ts), value: p.value }));
    total += await insertPoints(db, points);
  }
  if (opts.nabDir) {
    const nabIds = await ensureSeries(
      db,
      organization.id,
      NAB_SERIES.map((s) => `${s.host}-${s.service}-${s.item}`),
    );
    for (const s of NAB_SERIES) {
      const seriesId = nabIds.get(`${s.host}-${s.service}-${s.item}`);
      if (seriesId === undefined) continue;
      const rows = (await readNabSeries(path.join(opts.nabDir, s.file), now)).filter((r) => r.ts >= now - NAB_DAYS * DAY);
      total += await insertPoints(
        db,
        rows.map((r) => ({ seriesId, ts: new Date(r.ts), value: r.value })),
      );
    }
  }
  log(`demo history: ${total} points in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await refreshAggregates(db);
  // The worker evaluates the last days through the real pipeline, so states and alerts are true.
  const evaluated = Math.min(days, 3);
  await queueStoredPoints(db, organization.id, [...seriesIds.values()], new Date(now - evaluated * DAY), new Date(now));
  log(`demo: the last ${evaluated} days are queued for evaluation by the worker`);
  return true;
}

export { prng, type SeriesShape, valueAt } from "./synthetic.ts";
