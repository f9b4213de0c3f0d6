import { ExprError, type Macros, type Reference, references, type SeriesData } from "@tidemark/expr";
import { type AlertSpan, type BacktestSummary, backtest } from "./backtest.ts";
import type { ThresholdCurve } from "./curve.ts";
import type { ThresholdPolicy } from "./policy.ts";

/**
 * The threshold preview's decisions: how finely a window is judged, how far back its expressions
 * read, what a policy would have raised over it (the backtest, cut to what a page can show), and
 * the chart's buckets. Loading the history is the caller's.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Up to this window the preview judges every raw result, as the worker does. */
export const RAW_WINDOW_MS = 35 * DAY;
/** Chart points: enough for a wide screen; each keeps its bucket's min and max so peaks survive. */
export const CHART_BUCKETS = 1200;
/** Index references (`x[0:9]`) read the newest points before each hour: a day covers series sampled every few minutes. */
const INDEX_LOOKBACK_MS = DAY;
/** How far `x[n:END]` and `[-nH:END]` reach: all the history there is. */
const WHOLE_HISTORY_MS = 400 * DAY;
/** Alert spans sent at most. */
export const MAX_SPANS = 2000;
/** Expression problems reported at most. */
const MAX_ERRORS = 5;

export type PreviewResolution = "raw" | "1h";

/** Raw results for windows up to RAW_WINDOW_MS (one a minute on the curve), hourly buckets beyond. */
export function previewResolution(from: number, to: number): { resolution: PreviewResolution; stepMs: number } {
  return to - from <= RAW_WINDOW_MS ? { resolution: "raw", stepMs: MINUTE } : { resolution: "1h", stepMs: HOUR };
}

/** The item's results in the window; `low`/`high` are a bucket's min and max (the value itself for raw results). NaN is null. */
export interface PreviewSamples {
  timestamps: Float64Array;
  values: Float64Array;
  low: Float64Array;
  high: Float64Array;
}

export interface ChartPoint {
  ts: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  warningLow: number | null;
  criticalLow: number | null;
  /** The deployed version's threshold, drawn beside the draft's. */
  deployedThreshold: number | null;
}

export interface PolicyOutcome {
  spans: AlertSpan[];
  /** True when more spans happened than were sent. */
  spansTruncated: boolean;
  summary: BacktestSummary;
  /** Why expression hours had no threshold: syntax errors and unknown series (first few). */
  errors: string[];
}

function expressionSources(policy: ThresholdPolicy): string[] {
  return policy.periods.flatMap((p) => p.hours.entries.flatMap((e) => (e?.kind === "expression" ? [e.source] : [])));
}

/** Every series the policies' expression hours read; expressions that do not parse read nothing. */
export function policyReferences(policies: readonly ThresholdPolicy[], macros: Macros): Reference[] {
  const refs: Reference[] = [];
  for (const policy of policies) {
    for (const source of expressionSources(policy)) {
      try {
        refs.push(...references(source, { macros }));
      } catch (error) {
        if (!(error instanceof ExprError)) throw error;
      }
    }
  }
  return refs;
}

/** How far before an hour's start its references reach (ms), over all of them; offsets count back from `now`. */
export function referenceLookbackMs(refs: readonly Reference[]): number {
  let back = 0;
  for (const r of refs) {
    if (r.kind === "indexRange" && r.to === "END") back = Math.max(back, WHOLE_HISTORY_MS);
    else if (r.kind === "index" || r.kind === "indexRange") back = Math.max(back, INDEX_LOOKBACK_MS);
    else if (r.kind === "nearest") back = Math.max(back, Math.abs(r.offsetMs) + HOUR);
    else
      back = Math.max(back, r.toOffsetMs === "END" ? WHOLE_HISTORY_MS : Math.max(Math.abs(r.fromOffsetMs), Math.abs(r.toOffsetMs)) + HOUR);
  }
  return back;
}

/**
 * What `policy` would have raised over the window: the backtest's spans (the first MAX_SPANS),
 * its counts, and why expression hours had no threshold — a syntax error, or a series `data`
 * does not hold (the first few).
 */
export function policyOutcome(
  policy: ThresholdPolicy,
  samples: PreviewSamples,
  window: { from: number; to: number; stepMs: number },
  macros: Macros,
  data: SeriesData | undefined,
): { outcome: PolicyOutcome; curve: ThresholdCurve } {
  const result = backtest(policy, { series: samples, ...window, context: { data, macros } });
  const errors = new Set<string>();
  for (const source of expressionSources(policy)) {
    try {
      for (const ref of references(source, { macros })) if (!data?.has(ref.series)) errors.add(`unknown series '${ref.series}'`);
    } catch (error) {
      if (!(error instanceof ExprError)) throw error;
      errors.add(error.message);
    }
  }
  const outcome: PolicyOutcome = {
    spans: result.spans.length > MAX_SPANS ? result.spans.slice(0, MAX_SPANS) : [...result.spans],
    spansTruncated: result.spans.length > MAX_SPANS,
    summary: result.summary,
    errors: [...errors].slice(0, MAX_ERRORS),
  };
  return { outcome, curve: result.curve };
}

const nullable = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * Buckets of equal width (whole minutes), each with the min, max and mean of its samples and the
 * threshold and bands at the bucket's start, so that a month of minutes fits a chart and no peak
 * disappears.
 */
export function downsample(
  samples: PreviewSamples,
  curves: { draft: ThresholdCurve | null; deployed: ThresholdCurve | null },
  from: number,
  to: number,
  buckets: number,
): ChartPoint[] {
  const width = Math.max(MINUTE, Math.ceil((to - from) / buckets / MINUTE) * MINUTE);
  const start = Math.floor(from / width) * width;
  const count = Math.max(1, Math.ceil((to - start) / width));
  const sum = new Float64Array(count);
  const seen = new Uint32Array(count);
  const min = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < samples.timestamps.length; i++) {
    const b = Math.floor(((samples.timestamps[i] as number) - start) / width);
    if (b < 0 || b >= count) continue;
    const v = samples.values[i] as number;
    if (Number.isNaN(v)) continue;
    sum[b] = (sum[b] as number) + v;
    seen[b] = (seen[b] as number) + 1;
    min[b] = Math.min(min[b] as number, Number.isNaN(samples.low[i] as number) ? v : (samples.low[i] as number));
    max[b] = Math.max(max[b] as number, Number.isNaN(samples.high[i] as number) ? v : (samples.high[i] as number));
  }
  /** The curve's entry at (or just after the window start for) a bucket's first instant. */
  const indexIn = (curve: ThresholdCurve, ts: number) => {
    const first = curve.timestamps[0] ?? 0;
    const step = curve.timestamps.length > 1 ? (curve.timestamps[1] as number) - first : MINUTE;
    return Math.max(0, Math.min(curve.timestamps.length - 1, Math.round((Math.max(ts, from) - first) / step)));
  };
  const { draft: curve, deployed } = curves;
  const points: ChartPoint[] = [];
  for (let b = 0; b < count; b++) {
    const ts = start + b * width;
    const at = curve ? indexIn(curve, ts) : -1;
    const n = seen[b] as number;
    points.push({
      ts,
      avg: n > 0 ? (sum[b] as number) / n : null,
      min: n > 0 ? (min[b] as number) : null,
      max: n > 0 ? (max[b] as number) : null,
      threshold: curve ? nullable(curve.threshold[at] as number) : null,
      warning: curve ? nullable(curve.warning[at] as number) : null,
      critical: curve ? nullable(curve.critical[at] as number) : null,
      warningLow: curve ? nullable(curve.warningLow[at] as number) : null,
      criticalLow: curve ? nullable(curve.criticalLow[at] as number) : null,
      deployedThreshold: deployed ? nullable(deployed.threshold[indexIn(deployed, ts)] as number) : null,
    });
  }
  return points;
}
