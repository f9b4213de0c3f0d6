import { type AggregateBucket, fitSuggestion, roundSignificant, type Suggestion } from "@tidemark/suggest";
import { backtest, type Period, type State, type ThresholdPolicy } from "@tidemark/thresholds";
import { sharedDir } from "../../scripts/lib/paths.ts";
import { type LabelledSeries, readLabelledSeries } from "../lib/nab.ts";
import { hardProblems, type Judgement, judge, statesAgainst } from "../lib/quality-judge.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The quality scenario: threshold suggestions against the classic baselines on every labelled
 * series in shared/data/nab/ (or BENCH_NAB_DIR). Each series trains on the history before its first
 * anomaly window and is judged on the rest, raw point by raw point, with the product's defaults
 * (upper line `<`, 95th percentile, 1 alert a week, warning 10 %, critical 30 %). Baselines in the
 * same run: a static line at the training p99.9, and the same hour of day's mean ± 4σ (Zabbix's
 * baselinedev) both ways and upward only (the suggestion's `<` watches upward), each with maxSoft 0
 * (hard on the first result over the line), 1 and 3 (hard on the second, fourth in a row). No database: the 5-minute and hourly buckets are built
 * here exactly as the continuous aggregates build them.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WARNING = 10;
const CRITICAL = 30;

function buckets(timestamps: ArrayLike<number>, values: ArrayLike<number>, width: number): AggregateBucket[] {
  const out: { ts: number; sum: number; n: number; min: number; max: number }[] = [];
  for (let i = 0; i < timestamps.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) continue;
    const ts = Math.floor((timestamps[i] as number) / width) * width;
    const last = out.at(-1);
    if (last && last.ts === ts) {
      last.sum += v;
      last.n++;
      last.min = Math.min(last.min, v);
      last.max = Math.max(last.max, v);
    } else out.push({ ts, sum: v, n: 1, min: v, max: v });
  }
  return out.map((b) => ({ ts: b.ts, avg: b.sum / b.n, min: b.min, max: b.max }));
}

function basePolicy(calcMethod: "<" | ">"): ThresholdPolicy {
  const period: Period = {
    months: [],
    weeks: [],
    calcMethod,
    warning: WARNING,
    critical: CRITICAL,
    hours: { entries: Array(24).fill(null), levels: Array(24).fill(null) },
  };
  return { periods: [period], holidays: [], nullState: "OK", maxSoft: 3, timeZone: "UTC" };
}

function applied(policy: ThresholdPolicy, s: Suggestion): ThresholdPolicy {
  const period = policy.periods[0] as Period;
  const periods = s.periods ?? [
    {
      ...period,
      hours: { entries: s.hours.map((v) => (v === null ? null : { kind: "constant" as const, value: v })), levels: s.levels },
    },
  ];
  return { ...policy, periods, maxSoft: s.maxSoft };
}

/** Warning and critical lines of every suggested hour that leave the metric's bounds (they could never fire). */
function impossibleLines(policy: ThresholdPolicy, s: Suggestion): number {
  let count = 0;
  for (const p of policy.periods) {
    p.hours.entries.forEach((e, h) => {
      if (e?.kind !== "constant") return;
      const levels = p.hours.levels[h] ?? { warning: p.warning, critical: p.critical };
      for (const pct of [levels.warning, levels.critical]) {
        const line = (e.value * (100 + pct)) / 100;
        if ((s.bounds.max !== null && line >= s.bounds.max) || (s.bounds.min !== null && line <= s.bounds.min)) count++;
      }
    });
  }
  return count;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lo = Math.floor(rank);
  return (sorted[lo] as number) + ((sorted[Math.min(sorted.length - 1, lo + 1)] as number) - (sorted[lo] as number)) * (rank - lo);
}

interface SeriesResult {
  name: string;
  trainingDays: number;
  judgedDays: number;
  suggestion: {
    seasonality: string;
    scale: string;
    maxSoft: number;
    margin: number;
    expected: Suggestion["expected"];
    bounds: Suggestion["bounds"];
    impossibleLines: number;
    notes: string[];
  };
  methods: Record<string, Judgement>;
}

function scoreSeries(series: LabelledSeries): SeriesResult {
  const firstWindow = Math.min(...series.windows.map((w) => w.from));
  const split = series.timestamps.findIndex((t) => t >= firstWindow);
  const trainTs = series.timestamps.subarray(0, split);
  const trainValues = series.values.subarray(0, split);
  const judgedTs = series.timestamps.subarray(split);
  const judgedValues = series.values.subarray(split);
  const from = judgedTs[0] as number;
  const to = (judgedTs.at(-1) as number) + 1;

  const diffs = Array.from(
    { length: Math.min(judgedTs.length - 1, 1000) },
    (_, i) => (judgedTs[i + 1] as number) - (judgedTs[i] as number),
  );
  const stepMs = Math.max(MINUTE, quantile(diffs, 0.5));
  const suggest = (calcMethod: "<" | ">") => {
    const policy = basePolicy(calcMethod);
    const suggestion = fitSuggestion({
      policy,
      periodIndex: 0,
      fiveMinute: buckets(trainTs, trainValues, 5 * MINUTE),
      hourly: buckets(trainTs, trainValues, HOUR),
      percentile: 95,
      alertsPerWeek: 1,
      seriesKey: series.name,
    });
    const suggested = applied(policy, suggestion);
    const run = backtest(suggested, { series: { timestamps: judgedTs, values: judgedValues }, from, to, stepMs });
    return { suggestion, suggested, problems: hardProblems(run.states, suggestion.maxSoft) };
  };
  const upper = suggest("<");
  const lower = suggest(">");
  const { suggestion, suggested } = upper;

  const finite = Array.from(trainValues).filter(Number.isFinite);
  const p999 = quantile(finite, 0.999);
  const byHour: number[][] = Array.from({ length: 24 }, () => []);
  trainTs.forEach((t, i) => {
    const v = trainValues[i] as number;
    if (Number.isFinite(v)) byHour[new Date(t).getUTCHours()]?.push(v);
  });
  const mean = byHour.map((v) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length));
  const sd = byHour.map((v, h) => Math.sqrt(v.reduce((a, b) => a + (b - (mean[h] as number)) ** 2, 0) / Math.max(1, v.length - 1)));
  const hourOf = (i: number) => new Date(judgedTs[i] as number).getUTCHours();
  const staticStates = statesAgainst(
    judgedValues,
    () => p999,
    () => Number.NEGATIVE_INFINITY,
  );
  const sigmaStates = statesAgainst(
    judgedValues,
    (i) => (mean[hourOf(i)] as number) + 4 * (sd[hourOf(i)] as number),
    (i) => (mean[hourOf(i)] as number) - 4 * (sd[hourOf(i)] as number),
  );

  const sigmaUpperStates = statesAgainst(
    judgedValues,
    (i) => (mean[hourOf(i)] as number) + 4 * (sd[hourOf(i)] as number),
    () => Number.NEGATIVE_INFINITY,
  );

  const verdict = (problems: boolean[]) => judge(judgedTs, problems, series.windows, from, to);
  const classic = (states: State[], maxSoft: number) => verdict(hardProblems(states, maxSoft));
  return {
    name: series.name,
    trainingDays: roundSignificant((firstWindow - (series.timestamps[0] as number)) / 86_400_000),
    judgedDays: roundSignificant((to - from) / 86_400_000),
    suggestion: {
      seasonality: suggestion.seasonality,
      scale: suggestion.scale,
      maxSoft: suggestion.maxSoft,
      margin: suggestion.margin,
      expected: suggestion.expected,
      bounds: suggestion.bounds,
      impossibleLines: impossibleLines(suggested, suggestion),
      notes: suggestion.notes,
    },
    methods: {
      suggestion: verdict(upper.problems),
      "static p99.9 (maxSoft 0)": classic(staticStates, 0),
      "static p99.9 (maxSoft 1)": classic(staticStates, 1),
      "static p99.9 (maxSoft 3)": classic(staticStates, 3),
      "hour mean + 4σ (maxSoft 0)": classic(sigmaUpperStates, 0),
      "hour mean + 4σ (maxSoft 1)": classic(sigmaUpperStates, 1),
      "hour mean + 4σ (maxSoft 3)": classic(sigmaUpperStates, 3),
      "suggestion both ways (a `<` and a `>` item)": verdict(upper.problems.map((p, i) => p || (lower.problems[i] as boolean))),
      "hour mean ± 4σ (maxSoft 0)": classic(sigmaStates, 0),
      "hour mean ± 4σ (maxSoft 1)": classic(sigmaStates, 1),
      "hour mean ± 4σ (maxSoft 3)": classic(sigmaStates, 3),
    },
  };
}

function totals(results: readonly SeriesResult[]) {
  const methods = Object.keys(results[0]?.methods ?? {});
  return Object.fromEntries(
    methods.map((m) => {
      const js = results.map((r) => r.methods[m] as Judgement);
      const windows = js.reduce((a, j) => a + j.windows, 0);
      const detected = js.reduce((a, j) => a + j.detected, 0);
      const falseEpisodes = js.reduce((a, j) => a + j.falseEpisodes, 0);
      const weeks = js.reduce((a, j) => a + j.weeksOutside, 0);
      const delays = js.flatMap((j) => j.delaysHours).sort((a, b) => a - b);
      const perSeries = js.map((j) => j.falseEpisodes / Math.max(j.weeksOutside, 1e-9)).sort((a, b) => a - b);
      return [
        m,
        {
          windowsDetected: `${detected}/${windows}`,
          detected,
          windows,
          falseEpisodesPerWeek: roundSignificant(falseEpisodes / weeks),
          medianSeriesFalseEpisodesPerWeek: roundSignificant(quantile(perSeries, 0.5)),
          medianDelayHours: delays.length > 0 ? roundSignificant(quantile(delays, 0.5)) : null,
        },
      ];
    }),
  );
}

/** P(X ≤ k) for X ~ Poisson(mean), summed in log space (k is at most a few hundred here). */
function poissonAtMost(k: number, mean: number): number {
  if (mean <= 0) return 1;
  let term = -mean;
  let total = Math.exp(term);
  for (let i = 1; i <= k; i++) {
    term += Math.log(mean) - Math.log(i);
    total += Math.exp(term);
  }
  return Math.min(1, total);
}

/**
 * Whether the false episodes counted on the judged part could have come from a rate within the
 * announced range: neither fewer than its low end makes likely nor more than its high end does
 * (each side at 5 %). A rate read off a short judged part is itself a noisy estimate (0 in a
 * judged day says little), which comparing that rate with the range ignores.
 */
function countConsistentWithRange(count: number, weeks: number, range: { low: number; high: number }): boolean {
  const tooMany = count > 0 && 1 - poissonAtMost(count - 1, range.high * weeks) < 0.05;
  const tooFew = poissonAtMost(count, range.low * weeks) < 0.05;
  return !tooMany && !tooFew;
}

export const scenario: BenchScenario = {
  name: "quality",
  needsDatabase: false,
  async run({ log }) {
    const dir = process.env.BENCH_NAB_DIR ?? sharedDir("data", "nab");
    if (!dir) throw new Error("no labelled series: put NAB's files in shared/data/nab/ or set BENCH_NAB_DIR");
    const results = readLabelledSeries(dir).map((series) => {
      const r = scoreSeries(series);
      const s = r.methods.suggestion as Judgement;
      log(
        `${r.name}: ${r.suggestion.seasonality}, ${r.suggestion.scale} scale, maxSoft ${r.suggestion.maxSoft}, margin ${r.suggestion.margin}; ` +
          `detected ${s.detected}/${s.windows}, false ${s.falseEpisodes} in ${roundSignificant(s.weeksOutside)} weeks; ` +
          `expected ${roundSignificant(r.suggestion.expected.alertsPerWeek)} [${roundSignificant(r.suggestion.expected.low)}–${roundSignificant(r.suggestion.expected.high)}]`,
      );
      return r;
    });
    const withinRange = results.filter((r) => {
      const j = r.methods.suggestion as Judgement;
      const seen = j.falseEpisodes / Math.max(j.weeksOutside, 1e-9);
      return seen >= r.suggestion.expected.low && seen <= r.suggestion.expected.high;
    }).length;
    const consistent = results.filter((r) => {
      const j = r.methods.suggestion as Judgement;
      return countConsistentWithRange(j.falseEpisodes, j.weeksOutside, r.suggestion.expected);
    }).length;
    return {
      series: results.length,
      totals: totals(results),
      impossibleLines: results.reduce((a, r) => a + r.suggestion.impossibleLines, 0),
      expectedWithinRange: `${withinRange}/${results.length}`,
      /** The judged count is a plausible draw from the announced range (Poisson, 5 % each side). */
      expectedConsistentWithJudgedCount: `${consistent}/${results.length}`,
      results,
    };
  },
};
