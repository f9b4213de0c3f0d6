import { prng } from "@tidemark/db/seed";
import { compile, ExprError, evaluate, InMemorySeriesData, parse } from "@tidemark/expr";
import { evaluateThreshold, type HourEntry, type ThresholdPolicy, thresholdCurve } from "@tidemark/thresholds";

/**
 * The engine scenario: the pure expression and threshold cores on one core, no database.
 * Goals (issue 3): ≥ 500 000 evaluations/s of avg(h-s-i[0:9]), ≥ 100 000/s of the nine-reference
 * time-based expression, a 30-day 1-minute threshold curve in < 50 ms, and no untyped error in
 * the fuzz run.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const POINTS = 15_000;
const NINE_REFS = "avg(h-s-i[-10M],h-s-i[-20M],h-s-i[-30M],h-s-i[-40M],h-s-i[-60M],h-s-i[-90M],h-s-i[-120M],h-s-i[-150M],h-s-i[-180M])";

function history(): InMemorySeriesData {
  const data = new InMemorySeriesData();
  // Seeded, so that every run fuzzes and measures the same inputs.
  const random = prng(1);
  for (let i = POINTS - 1; i >= 0; i--) data.append("h-s-i", NOW - i * MINUTE, 1000 + Math.round(random() * 500));
  return data;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** Throughput plus per-evaluation latency percentiles, from batches of `batch` calls. */
function measure(fn: () => unknown, { warmupMs = 300, runMs = 1500, batch = 1000 } = {}) {
  const warmEnd = performance.now() + warmupMs;
  while (performance.now() < warmEnd) for (let i = 0; i < batch; i++) fn();
  const perCallUs: number[] = [];
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < runMs) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    now = performance.now();
    perCallUs.push(((now - t0) * 1000) / batch);
    calls += batch;
  }
  perCallUs.sort((a, b) => a - b);
  return {
    opsPerSec: Math.round((calls * 1000) / (now - start)),
    p50Us: round(percentile(perCallUs, 50)),
    p99Us: round(percentile(perCallUs, 99)),
    calls,
  };
}

function timeMs(fn: () => unknown, runs: number) {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { minMs: round(times[0] ?? Number.NaN), p50Ms: round(percentile(times, 50)), maxMs: round(times[times.length - 1] ?? Number.NaN) };
}

function curvePolicy(entry: (h: number) => HourEntry): ThresholdPolicy {
  return {
    periods: [
      {
        months: [],
        weeks: [{ week: null, dayOfWeek: 1 }],
        calcMethod: "<",
        warning: 20,
        critical: 50,
        hours: { entries: Array.from({ length: 24 }, (_, h) => entry(h)), levels: Array(24).fill(null) },
      },
      {
        months: [],
        weeks: [],
        calcMethod: ">",
        warning: 10,
        critical: 30,
        hours: { entries: Array.from({ length: 24 }, (_, h) => entry(h)), levels: Array(24).fill(null) },
      },
    ],
    holidays: [{ year: 2024, days: ["0506"] }],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "Europe/Stockholm",
  };
}

const SEEDS = [
  "avg(h-s-i[0:9])",
  NINE_REFS,
  "if(h-s-i[0] > avg(h-s-i[1:5]) * 1.2, max(h-s-i[-1H:END]), min(h-s-i[1,3,5]))",
  "divNull(sum(h-s-i[-30M:-120M]), h-s-i[-5M]) - stdev(h-s-i[0:99]) ^ 2",
  "$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[0] + my\\-host-s-i[2] % 7",
  "round(median(h-s-i[0:20]), 2) >= 1000 && !(h-s-i[0] == null) || multNull(2, ln(h-s-i[0]))",
];
const ALPHABET = "h-s-i[0:9],-30M END()+-*/%^<>=!&|. $\\1234567890avgsumifabsnullHMS\n\u00e4#";

function mutate(source: string, random: () => number): string {
  let s = source;
  const edits = 1 + Math.floor(random() * 4);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(random() * (s.length + 1));
    const ch = ALPHABET[Math.floor(random() * ALPHABET.length)] as string;
    switch (Math.floor(random() * 5)) {
      case 0:
        s = s.slice(0, at) + ch + s.slice(at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + 1);
        break;
      case 2:
        s = s.slice(0, at) + ch + s.slice(at + 1);
        break;
      case 3: {
        const len = Math.floor(random() * 12);
        s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at);
        break;
      }
      default:
        s = s.slice(0, at) + "(".repeat(Math.floor(random() * 80)) + s.slice(at);
    }
  }
  return s;
}

function randomSource(random: () => number): string {
  const len = Math.floor(random() * 60);
  let s = "";
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return s;
}

function fuzz(n: number, data: InMemorySeriesData) {
  const random = prng(42);
  const byCode: Record<string, number> = {};
  let ok = 0;
  let untyped = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const source = i % 3 === 0 ? randomSource(random) : mutate(SEEDS[i % SEEDS.length] as string, random);
    try {
      evaluate(source, { now: NOW, data, dropNulls: i % 2 === 0, macros: { host: "h", service: "s", item: "i" } });
      ok++;
    } catch (error) {
      if (error instanceof ExprError) byCode[error.code] = (byCode[error.code] ?? 0) + 1;
      else untyped++;
    }
  }
  return {
    sources: n,
    ok,
    typedErrors: Object.values(byCode).reduce((a, b) => a + b, 0),
    untypedErrors: untyped,
    byCode,
    ms: round(performance.now() - t0, 1),
  };
}

export const scenario = {
  name: "engine",
  needsDatabase: false,
  async run(): Promise<Record<string, unknown>> {
    const data = history();
    const ctx = { now: NOW, data };

    const rangeAst = parse("avg(h-s-i[0:9])");
    const rangeExpected = evaluate(rangeAst, ctx);
    const range = measure(() => evaluate(rangeAst, ctx));

    const nineAst = parse(NINE_REFS);
    const nine = measure(() => evaluate(nineAst, ctx));

    const parseCompile = measure(() => compile(parse(NINE_REFS)), { batch: 100 });

    const curveData = new InMemorySeriesData();
    const from = Date.UTC(2024, 3, 20);
    for (let t = from - DAY; t <= from + 31 * DAY; t += 5 * MINUTE) curveData.append("h-s-i", t, 1000 + ((t / MINUTE) % 1440));
    const curveInput = { from, to: from + 30 * DAY - MINUTE, step: MINUTE, context: { data: curveData } };
    const constantPolicy = curvePolicy((h) => ({ kind: "constant", value: 1000 + 50 * h }));
    const expressionPolicy = curvePolicy((h) =>
      h === 3 ? null : { kind: "expression", source: "avg(h-s-i[-60M], h-s-i[-1440M], h-s-i[-10080M]) * 1.1" },
    );
    const points = thresholdCurve(constantPolicy, curveInput).timestamps.length;
    const curveConstant = timeMs(() => thresholdCurve(constantPolicy, curveInput), 20);
    // A fresh policy object per run, so parsing and compiling its 23 expressions are timed too.
    const curveExpression = timeMs(() => thresholdCurve(structuredClone(expressionPolicy), curveInput), 20);

    let k = 0;
    const pointEvaluation = measure(() => evaluateThreshold(constantPolicy, { at: from + (k++ % 43_200) * MINUTE, value: 1200 }));

    const fuzzRun = fuzz(50_000, data);

    return {
      historyPoints: POINTS,
      rangeAvg: { expression: "avg(h-s-i[0:9])", result: rangeExpected, ...range, goalOpsPerSec: 500_000 },
      nineReferences: { expression: NINE_REFS, ...nine, goalOpsPerSec: 100_000 },
      parseAndCompileNineReferences: parseCompile,
      curve30Days1Min: { points, timeZone: "Europe/Stockholm", constantHours: curveConstant, expressionHours: curveExpression, goalMs: 50 },
      evaluateThresholdStockholm: pointEvaluation,
      fuzz: fuzzRun,
    };
  },
};
