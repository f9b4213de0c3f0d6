import { InMemorySeriesData, type Macros, type Reference } from "@tidemark/expr";
import {
  CHART_BUCKETS,
  type ChartPoint,
  downsample,
  type PolicyOutcome,
  type PreviewResolution,
  type PreviewSamples,
  policyOutcome,
  policyReferences,
  previewResolution,
  referenceLookbackMs,
  type ThresholdPolicy,
  thresholdPolicySchema,
} from "@tidemark/thresholds";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { policyFromRow, policyInclude } from "./policy-rows.ts";

/**
 * The server side of the threshold preview: one item's history over a window and the history its
 * policies' expressions read, handed to @tidemark/thresholds, which judges the draft policy (and
 * the deployed one) over it and draws the chart.
 */

export type DeployedOutcome =
  | { status: "deployed"; version: number; deployedAt: Date; outcome: PolicyOutcome | null }
  | { status: "not-deployed" }
  | { status: "item-not-in-deployment"; version: number; deployedAt: Date };

export interface PreviewResult {
  seriesKey: string;
  from: number;
  to: number;
  resolution: PreviewResolution;
  /** Milliseconds one result stands for. */
  stepMs: number;
  points: ChartPoint[];
  /** Null when the item has no policy and none was sent. */
  draft: PolicyOutcome | null;
  deployed: DeployedOutcome;
  /** Server time: the item, its policies and the deployment (meta), the history, the backtests. */
  timings: { metaMs: number; historyMs: number; computeMs: number };
}

/**
 * Raw points travel packed into one text value per series ("seconds value,seconds value,…", the
 * seconds counted from the start of the load): the embedded server pays a fixed cost per result
 * row, and 43 200 rows take several times longer to send than one string of the same points
 * (measured: ~600 ms against ~150 ms for a month of minutes). Values keep full float8 precision.
 * The points are aggregated from an ordered subquery (PostgreSQL keeps that order, as its manual
 * says for aggregates over a sorted subquery), so the (series, ts) index supplies the order and
 * the aggregate does not sort.
 */
const packedPointsSql = (ts: string, value: string) =>
  `string_agg(round((extract(epoch FROM ${ts}) - $3::float8) * 1000)::bigint::text || ' ' || coalesce(${value}::text, ''), ',')`;

export function unpackPoints(text: string | null, originMs: number): { timestamps: Float64Array; values: Float64Array } {
  if (!text) return { timestamps: new Float64Array(0), values: new Float64Array(0) };
  const entries = text.split(",");
  const timestamps = new Float64Array(entries.length);
  const values = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as string;
    const space = entry.indexOf(" ");
    timestamps[i] = originMs + Number(entry.slice(0, space));
    values[i] = space === entry.length - 1 ? Number.NaN : Number(entry.slice(space + 1));
  }
  return { timestamps, values };
}

/** The item's 1-hour buckets with their min and max, for windows beyond RAW_WINDOW_MS. */
async function loadHourlySamples(db: Database, seriesId: number, from: Date, to: Date): Promise<PreviewSamples> {
  const { rows } = await poolOf(db).query<[number, number | null, number | null, number | null]>({
    text: `SELECT extract(epoch FROM bucket)::float8 * 1000, avg, min, max FROM metric_1h WHERE series_id = $1 AND bucket >= $2 AND bucket <= $3 ORDER BY bucket`,
    values: [seriesId, from, to],
    rowMode: "array",
  });
  const n = rows.length;
  const samples: PreviewSamples = {
    timestamps: new Float64Array(n),
    values: new Float64Array(n),
    low: new Float64Array(n),
    high: new Float64Array(n),
  };
  rows.forEach(([ts, avg, min, max], i) => {
    samples.timestamps[i] = ts;
    samples.values[i] = avg ?? Number.NaN;
    samples.low[i] = min ?? Number.NaN;
    samples.high[i] = max ?? Number.NaN;
  });
  return samples;
}

/**
 * Packed points of the organisation's series with these keys since `since`: raw points, or the
 * hourly means. One query for all of them; a key without a series is absent from the result.
 */
async function loadPacked(
  db: Database,
  organizationId: string,
  keys: readonly string[],
  since: Date,
  to: Date,
  resolution: PreviewResolution,
) {
  const text =
    resolution === "raw"
      ? `SELECT s.key, (SELECT ${packedPointsSql("p.ts", "p.value")} FROM (
           SELECT ts, value FROM metric_points WHERE series_id = s.id AND ts >= to_timestamp($3::float8) AND ts <= $4 ORDER BY ts) p)
         FROM series s WHERE s.organization_id = $1 AND s.key = ANY($2::text[])`
      : `SELECT s.key, (SELECT ${packedPointsSql("a.bucket", "a.avg")} FROM (
           SELECT bucket, avg FROM metric_1h WHERE series_id = s.id AND bucket >= to_timestamp($3::float8) AND bucket <= $4 ORDER BY bucket) a)
         FROM series s WHERE s.organization_id = $1 AND s.key = ANY($2::text[])`;
  const origin = since.getTime();
  const { rows } = await poolOf(db).query<[key: string, text: string | null]>({
    text,
    values: [organizationId, keys, origin / 1000, to],
    rowMode: "array",
  });
  return new Map(rows.map(([key, points]) => [key, unpackPoints(points, origin)]));
}

function firstAtOrAfter(timestamps: Float64Array, t: number): number {
  let lo = 0;
  let hi = timestamps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((timestamps[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The item's results in the window and the history its policies' expressions read. For raw
 * windows both come from ONE query (the item's own series is usually among the references, as in
 * "same time last week"); unknown referenced series stay unknown so that they show as errors.
 */
async function loadHistory(
  db: Database,
  organizationId: string,
  item: { seriesKey: string; seriesId: number | null },
  refs: readonly Reference[],
  window: { from: number; to: number; resolution: PreviewResolution },
): Promise<{ samples: PreviewSamples; data: InMemorySeriesData | undefined }> {
  const refKeys = [...new Set(refs.map((r) => r.series))];
  const since = new Date(window.from - referenceLookbackMs(refs));
  const to = new Date(window.to);
  const keys = window.resolution === "raw" ? [...new Set([item.seriesKey, ...refKeys])] : refKeys;
  const [packed, hourly] = await Promise.all([
    keys.length > 0
      ? loadPacked(db, organizationId, keys, since, to, window.resolution)
      : new Map<string, ReturnType<typeof unpackPoints>>(),
    window.resolution === "1h" && item.seriesId !== null ? loadHourlySamples(db, item.seriesId, new Date(window.from), to) : null,
  ]);

  let samples: PreviewSamples = {
    timestamps: new Float64Array(0),
    values: new Float64Array(0),
    low: new Float64Array(0),
    high: new Float64Array(0),
  };
  if (hourly) samples = hourly;
  const own = window.resolution === "raw" ? packed.get(item.seriesKey) : undefined;
  if (own) {
    const start = firstAtOrAfter(own.timestamps, window.from);
    const values = own.values.subarray(start);
    samples = { timestamps: own.timestamps.subarray(start), values, low: values, high: values };
  }

  if (refKeys.length === 0) return { samples, data: undefined };
  const data = new InMemorySeriesData({ capacity: 2_000_000 });
  for (const key of refKeys) {
    const points = packed.get(key);
    if (!points) continue;
    data.ensure(key);
    for (let i = 0; i < points.timestamps.length; i++) {
      const v = points.values[i] as number;
      data.append(key, points.timestamps[i] as number, Number.isNaN(v) ? null : v);
    }
  }
  return { samples, data };
}

export class PreviewNotFoundError extends Error {}

interface DeployedRow {
  version: number;
  created_at: Date;
  item: { policy?: unknown } | null;
}

/**
 * The item's policy in the organisation's latest deployment. The snapshot is read inside the
 * database (jsonb) so a deployment of 10 000 items is not shipped over the wire per preview.
 */
export async function deployedPolicy(
  db: Database,
  organizationId: string,
  names: { host: string; service: string; item: string },
): Promise<
  | { status: "not-deployed" }
  | { status: "item-not-in-deployment" | "deployed"; version: number; deployedAt: Date; policy: ThresholdPolicy | null }
> {
  const { rows } = await poolOf(db).query<DeployedRow>(
    `SELECT d.version, d.created_at,
            (SELECT i FROM jsonb_array_elements(coalesce(d.snapshot->'configuration'->'hosts', d.snapshot->'hosts')) h,
                           jsonb_array_elements(h->'services') s, jsonb_array_elements(s->'items') i
             WHERE h->>'name' = $2 AND s->>'name' = $3 AND i->>'name' = $4 LIMIT 1) AS item
     FROM deployments d WHERE d.organization_id = $1 ORDER BY d.version DESC LIMIT 1`,
    [organizationId, names.host, names.service, names.item],
  );
  const row = rows[0];
  if (!row) return { status: "not-deployed" };
  if (!row.item) return { status: "item-not-in-deployment", version: row.version, deployedAt: row.created_at, policy: null };
  const parsed = thresholdPolicySchema.nullable().safeParse(row.item.policy ?? null);
  return { status: "deployed", version: row.version, deployedAt: row.created_at, policy: parsed.success ? parsed.data : null };
}

export interface PreviewInput {
  itemId: string;
  from: Date;
  to: Date;
  /** The policy being edited; null previews the saved one. */
  draft: ThresholdPolicy | null;
}

export async function previewItem(db: Database, organizationId: string, input: PreviewInput): Promise<PreviewResult> {
  const t0 = performance.now();
  const item = await prismaOf(db).serviceItem.findFirst({
    where: { id: input.itemId, organizationId },
    include: { service: { include: { host: true } }, policy: { include: policyInclude } },
  });
  if (!item) throw new PreviewNotFoundError("no such service item in this organisation");
  const names = { host: item.service.host.name, service: item.service.name, item: item.name };
  const macros: Macros = { host: names.host, service: names.service, item: names.item };
  const draft = input.draft ?? (item.policy ? policyFromRow(item.policy) : null);
  const from = input.from.getTime();
  const to = input.to.getTime();
  const { resolution, stepMs } = previewResolution(from, to);

  const [seriesRow, deployed] = await Promise.all([
    prismaOf(db).series.findUnique({ where: { organizationId_key: { organizationId, key: item.seriesKey } }, select: { id: true } }),
    deployedPolicy(db, organizationId, names),
  ]);
  const tMeta = performance.now();
  const deployedPolicies = deployed.status === "deployed" && deployed.policy ? [deployed.policy] : [];
  const refs = policyReferences([...(draft ? [draft] : []), ...deployedPolicies], macros);
  const { samples, data } = await loadHistory(
    db,
    organizationId,
    { seriesKey: item.seriesKey, seriesId: seriesRow ? Number(seriesRow.id) : null },
    refs,
    { from, to, resolution },
  );
  const t1 = performance.now();

  const window = { from, to, stepMs };
  const draftResult = draft ? policyOutcome(draft, samples, window, macros, data) : null;
  const deployedResult =
    deployed.status === "deployed" && deployed.policy ? policyOutcome(deployed.policy, samples, window, macros, data) : null;
  const deployedOutcome: DeployedOutcome =
    deployed.status === "not-deployed"
      ? deployed
      : deployed.status === "item-not-in-deployment"
        ? { status: deployed.status, version: deployed.version, deployedAt: deployed.deployedAt }
        : {
            status: "deployed",
            version: deployed.version,
            deployedAt: deployed.deployedAt,
            outcome: deployedResult?.outcome ?? null,
          };
  const points = downsample(
    samples,
    { draft: draftResult?.curve ?? null, deployed: deployedResult?.curve ?? null },
    from,
    to,
    CHART_BUCKETS,
  );
  return {
    seriesKey: item.seriesKey,
    from,
    to,
    resolution,
    stepMs,
    points,
    draft: draftResult?.outcome ?? null,
    deployed: deployedOutcome,
    timings: { metaMs: Math.round(tMeta - t0), historyMs: Math.round(t1 - tMeta), computeMs: Math.round(performance.now() - t1) },
  };
}
