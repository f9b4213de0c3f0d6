import { type Configuration, seriesKey } from "@tidemark/model";
import type { Period, ThresholdPolicy } from "@tidemark/thresholds/policy";
import type { Database } from "./database.ts";
import type { PrismaTypes } from "./prisma.ts";

/** The configuration tables, always read and written within one organisation. */

type Tx = Parameters<Parameters<Database["prisma"]["$transaction"]>[0]>[0];

const CALC_TO_DB = { ">": "higher", "<": "lower", "=": "near" } as const;
const CALC_FROM_DB = { higher: ">", lower: "<", near: "=" } as const;

export function periodToRow(period: Period, position: number) {
  return {
    position,
    monthRules: period.months,
    weekRules: period.weeks,
    calcMethod: CALC_TO_DB[period.calcMethod],
    warning: period.warning,
    critical: period.critical,
    hours: period.hours.entries,
    hourLevels: period.hours.levels,
  };
}

type PolicyWithPeriods = PrismaTypes.Prisma.ThresholdPolicyGetPayload<{
  include: { periods: true; holidayCalendar: { include: { days: true } } };
}>;

export function policyFromRow(row: PolicyWithPeriods): ThresholdPolicy {
  const byYear = new Map<number, string[]>();
  for (const d of row.holidayCalendar?.days ?? []) {
    const days = byYear.get(d.year);
    if (days) days.push(d.monthDay);
    else byYear.set(d.year, [d.monthDay]);
  }
  return {
    periods: [...row.periods]
      .sort((a, b) => a.position - b.position)
      .map((p) => ({
        months: p.monthRules as Period["months"],
        weeks: p.weekRules as Period["weeks"],
        calcMethod: CALC_FROM_DB[p.calcMethod],
        warning: p.warning,
        critical: p.critical,
        hours: { entries: p.hours as Period["hours"]["entries"], levels: p.hourLevels as Period["hours"]["levels"] },
      })),
    holidays: [...byYear].map(([year, days]) => ({ year, days: days.sort() })),
    nullState: row.nullState,
    maxSoft: row.maxSoft,
    timeZone: row.timeZone,
  };
}

export const policyInclude = { periods: true, holidayCalendar: { include: { days: true } } } as const;

/** Creates a policy (and its holiday calendar when it has holidays) inside a transaction. */
export async function createPolicy(
  tx: Tx,
  organizationId: string,
  policy: ThresholdPolicy,
  opts: { name?: string | null; isTemplate?: boolean } = {},
): Promise<string> {
  let holidayCalendarId: string | null = null;
  if (policy.holidays.length > 0) {
    const calendar = await tx.holidayCalendar.create({
      data: {
        organizationId,
        name: `${opts.name ?? "holidays"}-${crypto.randomUUID().slice(0, 8)}`,
        days: { create: policy.holidays.flatMap((h) => h.days.map((monthDay) => ({ year: h.year, monthDay }))) },
      },
    });
    holidayCalendarId = calendar.id;
  }
  const created = await tx.thresholdPolicy.create({
    data: {
      organizationId,
      name: opts.name ?? null,
      isTemplate: opts.isTemplate ?? false,
      nullState: policy.nullState,
      maxSoft: policy.maxSoft,
      timeZone: policy.timeZone,
      holidayCalendarId,
      periods: { create: policy.periods.map(periodToRow) },
    },
  });
  return created.id;
}

export interface ImportSummary {
  hosts: number;
  services: number;
  items: number;
  policies: number;
}

const CHUNK = 2000;

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/**
 * Adds a whole configuration (from the demo seeder or the Bischeck importer) in one
 * transaction: all of it or nothing. Rows go in with a handful of bulk statements whatever the
 * size (10 000 items import in seconds). Existing names are refused by the unique constraints.
 */
export async function importConfiguration(
  db: Database,
  organizationId: string,
  configuration: Configuration,
  opts: { agentId?: string | null } = {},
): Promise<ImportSummary> {
  const hosts = configuration.hosts;
  const services = hosts.flatMap((host) => host.services.map((service) => ({ host, service })));
  const items = services.flatMap(({ host, service }) => service.items.map((item) => ({ host, service, item })));
  const withPolicy = items.filter((i) => i.item.policy !== null);
  await db.prisma.$transaction(
    async (tx) => {
      const hostIds = new Map<string, string>();
      for (const part of chunks(hosts)) {
        const rows = await tx.host.createManyAndReturn({
          data: part.map((h) => ({ organizationId, name: h.name, alias: h.alias, description: h.description })),
          select: { id: true, name: true },
        });
        for (const r of rows) hostIds.set(r.name, r.id);
      }
      const serviceIds = new Map<string, string>();
      for (const part of chunks(services)) {
        const rows = await tx.service.createManyAndReturn({
          data: part.map(({ host, service }) => ({
            organizationId,
            hostId: hostIds.get(host.name)!,
            name: service.name,
            description: service.description,
            schedules: service.schedules,
            url: service.url,
            sendServiceData: service.sendServiceData,
            agentId: service.url.startsWith("bischeck://") ? null : (opts.agentId ?? null),
          })),
          select: { id: true, name: true, hostId: true },
        });
        for (const r of rows) serviceIds.set(`${r.hostId}/${r.name}`, r.id);
      }
      const policyIds = new Map<(typeof items)[number], string>();
      const plain = withPolicy.filter((i) => i.item.policy!.holidays.length === 0);
      for (const part of chunks(plain)) {
        const rows = await tx.thresholdPolicy.createManyAndReturn({
          data: part.map(({ item }) => ({
            organizationId,
            nullState: item.policy!.nullState,
            maxSoft: item.policy!.maxSoft,
            timeZone: item.policy!.timeZone,
          })),
          select: { id: true },
        });
        for (const [i, r] of rows.entries()) policyIds.set(part[i]!, r.id);
        await tx.thresholdPeriod.createMany({
          data: part.flatMap((entry, i) => entry.item.policy!.periods.map((p, position) => ({ policyId: rows[i]!.id, ...periodToRow(p, position) }))),
        });
      }
      // Policies with holidays also get a calendar each: rare enough to create one by one.
      for (const entry of withPolicy.filter((i) => i.item.policy!.holidays.length > 0)) {
        policyIds.set(entry, await createPolicy(tx, organizationId, entry.item.policy!));
      }
      for (const part of chunks(items)) {
        await tx.serviceItem.createMany({
          data: part.map((entry) => ({
            organizationId,
            serviceId: serviceIds.get(`${hostIds.get(entry.host.name)}/${entry.service.name}`)!,
            name: entry.item.name,
            description: entry.item.description,
            execStatement: entry.item.execStatement,
            thresholdClass: entry.item.thresholdClass,
            serviceItemClass: entry.item.serviceItemClass,
            cacheMaxCount: entry.item.cacheMaxCount,
            policyId: policyIds.get(entry) ?? null,
            seriesKey: seriesKey(entry.host.name, entry.service.name, entry.item.name),
          })),
        });
      }
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  return { hosts: hosts.length, services: services.length, items: items.length, policies: withPolicy.length };
}

export interface Overview {
  hosts: number;
  services: number;
  items: number;
  agents: number;
  openAlerts: number;
  states: Record<"OK" | "WARNING" | "CRITICAL" | "UNKNOWN", number>;
}

export async function configurationOverview(db: Database, organizationId: string): Promise<Overview> {
  // One statement, not six: the overview is polled by every open dashboard.
  const { rows } = await db.pool.query<Omit<Overview, "states"> & { states: Partial<Overview["states"]> | null }>({
    text: `SELECT (SELECT count(*)::int FROM hosts WHERE organization_id = $1) AS hosts,
                  (SELECT count(*)::int FROM services WHERE organization_id = $1) AS services,
                  (SELECT count(*)::int FROM service_items WHERE organization_id = $1) AS items,
                  (SELECT count(*)::int FROM agents WHERE organization_id = $1 AND revoked_at IS NULL) AS agents,
                  (SELECT count(*)::int FROM alerts WHERE organization_id = $1 AND closed_at IS NULL) AS "openAlerts",
                  (SELECT json_object_agg(state, n) FROM (
                     SELECT st.hard_state AS state, count(*)::int AS n FROM item_states st JOIN series s ON s.id = st.series_id
                     WHERE s.organization_id = $1 GROUP BY st.hard_state) counted) AS states`,
    values: [organizationId],
  });
  const row = rows[0]!;
  return { ...row, states: { OK: 0, WARNING: 0, CRITICAL: 0, UNKNOWN: 0, ...row.states } };
}

export interface ItemListRow {
  id: string;
  host: string;
  service: string;
  item: string;
  seriesKey: string;
  url: string;
  schedules: string[];
  hasPolicy: boolean;
  seriesId: number | null;
  state: string | null;
  lastValue: number | null;
  /** When the last point was measured, and the plugin's exit code and output line with it. */
  lastTs: Date | null;
  lastStatus: number | null;
  lastOutput: string | null;
}

/** Keyset-paginated item list (stays fast with 10 000s of items), filtered by a search text. */
export async function listItems(
  db: Database,
  organizationId: string,
  opts: { search?: string; after?: string | null; limit: number },
): Promise<{ rows: ItemListRow[]; next: string | null }> {
  const pattern = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows } = await db.pool.query<{
    id: string;
    host: string;
    service: string;
    item: string;
    series_key: string;
    url: string;
    schedules: string[];
    has_policy: boolean;
    series_id: number | null;
    state: string | null;
    value: number | null;
    ts: Date | null;
    status: number | null;
    output: string | null;
  }>(
    `SELECT i.id, h.name AS host, s.name AS service, i.name AS item, i.series_key, s.url, s.schedules,
            i.policy_id IS NOT NULL AS has_policy, se.id AS series_id, st.hard_state AS state, last.value, last.ts, last.status, last.output
     FROM service_items i
     JOIN services s ON s.id = i.service_id
     JOIN hosts h ON h.id = s.host_id
     LEFT JOIN series se ON se.organization_id = i.organization_id AND se.key = i.series_key
     LEFT JOIN item_states st ON st.series_id = se.id
     LEFT JOIN LATERAL (
       SELECT p.ts, p.value, p.status, p.output FROM metric_points p WHERE p.series_id = se.id ORDER BY p.ts DESC LIMIT 1
     ) last ON true
     WHERE i.organization_id = $1
       AND ($2::text IS NULL OR i.series_key ILIKE $2)
       AND ($3::text IS NULL OR i.series_key > $3)
     ORDER BY i.series_key
     LIMIT $4`,
    [organizationId, pattern, opts.after ?? null, opts.limit + 1],
  );
  const page = rows.slice(0, opts.limit).map((r) => ({
    id: r.id,
    host: r.host,
    service: r.service,
    item: r.item,
    seriesKey: r.series_key,
    url: r.url,
    schedules: r.schedules,
    hasPolicy: r.has_policy,
    seriesId: r.series_id,
    state: r.state,
    lastValue: r.value,
    lastTs: r.ts,
    lastStatus: r.status,
    lastOutput: r.output,
  }));
  return { rows: page, next: rows.length > opts.limit ? (page.at(-1)?.seriesKey ?? null) : null };
}
