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
  for (const d of row.holidayCalendar?.days ?? []) byYear.set(d.year, [...(byYear.get(d.year) ?? []), d.monthDay]);
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

/**
 * Adds a whole configuration (from the demo seeder or the Bischeck importer) in one
 * transaction: all of it or nothing. Existing names are refused by the unique constraints.
 */
export async function importConfiguration(
  db: Database,
  organizationId: string,
  configuration: Configuration,
  opts: { agentId?: string | null } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { hosts: 0, services: 0, items: 0, policies: 0 };
  await db.prisma.$transaction(
    async (tx) => {
      for (const host of configuration.hosts) {
        const hostRow = await tx.host.create({
          data: { organizationId, name: host.name, alias: host.alias, description: host.description },
        });
        summary.hosts++;
        for (const service of host.services) {
          const isWorkerRun = service.url.startsWith("bischeck://");
          const serviceRow = await tx.service.create({
            data: {
              organizationId,
              hostId: hostRow.id,
              name: service.name,
              description: service.description,
              schedules: service.schedules,
              url: service.url,
              sendServiceData: service.sendServiceData,
              agentId: isWorkerRun ? null : (opts.agentId ?? null),
            },
          });
          summary.services++;
          for (const item of service.items) {
            const policyId = item.policy ? await createPolicy(tx, organizationId, item.policy) : null;
            if (policyId) summary.policies++;
            await tx.serviceItem.create({
              data: {
                organizationId,
                serviceId: serviceRow.id,
                name: item.name,
                description: item.description,
                execStatement: item.execStatement,
                thresholdClass: item.thresholdClass,
                serviceItemClass: item.serviceItemClass,
                cacheMaxCount: item.cacheMaxCount,
                policyId,
                seriesKey: seriesKey(host.name, service.name, item.name),
              },
            });
            summary.items++;
          }
        }
      }
    },
    { timeout: 120_000 },
  );
  return summary;
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
  const where = { organizationId };
  const [hosts, services, items, agents, openAlerts, stateRows] = await Promise.all([
    db.prisma.host.count({ where }),
    db.prisma.service.count({ where }),
    db.prisma.serviceItem.count({ where }),
    db.prisma.agent.count({ where: { organizationId, revokedAt: null } }),
    db.prisma.alert.count({ where: { organizationId, closedAt: null } }),
    db.pool.query<{ state: keyof Overview["states"]; n: number }>(
      `SELECT st.hard_state AS state, count(*)::int AS n FROM item_states st JOIN series s ON s.id = st.series_id
       WHERE s.organization_id = $1 GROUP BY st.hard_state`,
      [organizationId],
    ),
  ]);
  const states = { OK: 0, WARNING: 0, CRITICAL: 0, UNKNOWN: 0 };
  for (const r of stateRows.rows) states[r.state] = r.n;
  return { hosts, services, items, agents, openAlerts, states };
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
  lastTs: Date | null;
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
  }>(
    `SELECT i.id, h.name AS host, s.name AS service, i.name AS item, i.series_key, s.url, s.schedules,
            i.policy_id IS NOT NULL AS has_policy, se.id AS series_id, st.hard_state AS state, last.value, last.ts
     FROM service_items i
     JOIN services s ON s.id = i.service_id
     JOIN hosts h ON h.id = s.host_id
     LEFT JOIN series se ON se.organization_id = i.organization_id AND se.key = i.series_key
     LEFT JOIN item_states st ON st.series_id = se.id
     LEFT JOIN LATERAL (
       SELECT p.ts, p.value FROM metric_points p WHERE p.series_id = se.id ORDER BY p.ts DESC LIMIT 1
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
  }));
  return { rows: page, next: rows.length > opts.limit ? (page.at(-1)?.seriesKey ?? null) : null };
}
