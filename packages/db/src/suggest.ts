import { backtest, localTime, type Period, selectPeriod, type ThresholdPolicy } from "@tidemark/thresholds";
import type { Database } from "./database.ts";

/**
 * Suggested thresholds: from the 1-hour aggregate, a percentile per hour of the day over the days
 * a period applies to, widened by the smallest margin that keeps the alerts under a budget.
 */

const HOUR = 3_600_000;
const WEEK = 7 * 86_400_000;

export interface HourlyBucket {
  ts: number;
  avg: number | null;
  min: number | null;
  max: number | null;
}

export interface SuggestOptions {
  periodIndex: number;
  /**
   * How much of the history the threshold should leave on the OK side, 0..100: the p-th percentile
   * of the hourly peaks for `<`, the (100 − p)-th of the troughs for `>`; `=` takes the median of
   * the hourly means.
   */
  percentile: number;
  /** At most this many alerts a week over the history. */
  alertsPerWeek: number;
  /** How many weeks of history the buckets cover. */
  weeks: number;
}

export interface Suggestion {
  /** Suggested T[h] for the period, null where the history has no bucket for that hour. */
  hours: (number | null)[];
  /** How many hourly buckets each hour's value rests on. */
  samples: number[];
  /** Fraction added (`<`) or removed (`>`) around the percentile; always 0 for `=`. */
  margin: number;
  /** Alerts a week the suggestion would have raised over the history, judging each hour by its extreme. */
  alertsPerWeek: number;
  /** False when even the widest margin tried exceeds the budget. */
  withinBudget: boolean;
}

const MARGINS = Array.from({ length: 41 }, (_, i) => i * 0.05);

function percentileOf(sorted: readonly number[], p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (rank - lo);
}

/** Three significant digits: a threshold a person would write. */
export function roundThreshold(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const magnitude = 10 ** (Math.floor(Math.log10(Math.abs(v))) - 2);
  return Math.round(v / magnitude) * magnitude;
}

/** Pure core of the suggestion: buckets in, hour values and the fitted margin out. */
export function fitSuggestion(policy: ThresholdPolicy, buckets: readonly HourlyBucket[], options: SuggestOptions): Suggestion {
  const period = policy.periods[options.periodIndex];
  if (!period) throw new RangeError(`no period ${options.periodIndex}`);
  const calc = period.calcMethod;
  const byHour: number[][] = Array.from({ length: 24 }, () => []);
  const applies = buckets.filter((b) => {
    const selection = selectPeriod(policy, b.ts);
    return selection.kind === "period" && selection.index === options.periodIndex;
  });
  for (const b of applies) {
    const v = calc === "<" ? b.max : calc === ">" ? b.min : b.avg;
    if (v !== null && Number.isFinite(v)) byHour[localTime(policy.timeZone, b.ts).hour]?.push(v);
  }
  const rank = calc === "<" ? options.percentile : calc === ">" ? 100 - options.percentile : 50;
  const base = byHour.map((values) =>
    values.length === 0
      ? null
      : percentileOf(
          [...values].sort((a, b) => a - b),
          rank,
        ),
  );

  const withMargin = (margin: number): Period => ({
    ...period,
    hours: {
      ...period.hours,
      entries: base.map((v) =>
        v === null ? null : { kind: "constant", value: roundThreshold(calc === ">" ? v * (1 - margin) : v * (1 + margin)) },
      ),
    },
  });
  const series = {
    timestamps: applies.map((b) => b.ts),
    values: applies.map((b) => b.avg ?? Number.NaN),
    low: applies.map((b) => b.min ?? Number.NaN),
    high: applies.map((b) => b.max ?? Number.NaN),
  };
  const alertsPerWeekWith = (p: Period) => {
    if (series.timestamps.length === 0) return 0;
    // One hourly bucket stands for sixty results: an hour whose extreme crosses counts at once.
    const candidate: ThresholdPolicy = {
      ...policy,
      maxSoft: 1,
      periods: policy.periods.map((q, i) => (i === options.periodIndex ? p : q)),
    };
    const from = series.timestamps[0] as number;
    const to = (series.timestamps.at(-1) as number) + HOUR;
    const { summary } = backtest(candidate, { series, from, to, stepMs: HOUR });
    return summary.alerts / Math.max(1, options.weeks);
  };

  const margins = calc === "=" ? [0] : MARGINS;
  let chosen = margins.at(-1) as number;
  let alerts = Number.POSITIVE_INFINITY;
  for (const margin of margins) {
    alerts = alertsPerWeekWith(withMargin(margin));
    chosen = margin;
    if (alerts <= options.alertsPerWeek) break;
  }
  const entries = withMargin(chosen).hours.entries;
  return {
    hours: entries.map((e) => (e?.kind === "constant" ? e.value : null)),
    samples: byHour.map((v) => v.length),
    margin: chosen,
    alertsPerWeek: alerts,
    withinBudget: alerts <= options.alertsPerWeek,
  };
}

/** Reads the item's hourly aggregate over the last `weeks` weeks (one query) and fits a suggestion. */
export async function suggestThresholds(
  db: Database,
  organizationId: string,
  seriesKey: string,
  policy: ThresholdPolicy,
  options: SuggestOptions,
  now = Date.now(),
): Promise<Suggestion & { buckets: number }> {
  const { rows } = await db.pool.query<{ bucket: Date; avg: number | null; min: number | null; max: number | null }>(
    `SELECT a.bucket, a.avg, a.min, a.max FROM metric_1h a JOIN series s ON s.id = a.series_id
     WHERE s.organization_id = $1 AND s.key = $2 AND a.bucket >= $3 AND a.bucket < $4 ORDER BY a.bucket`,
    [organizationId, seriesKey, new Date(now - options.weeks * WEEK), new Date(now)],
  );
  const buckets = rows.map((r) => ({ ts: r.bucket.getTime(), avg: r.avg, min: r.min, max: r.max }));
  return { ...fitSuggestion(policy, buckets, options), buckets: buckets.length };
}
