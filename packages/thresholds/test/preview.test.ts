import { InMemorySeriesData, references } from "@tidemark/expr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  downsample,
  MAX_SPANS,
  type PreviewSamples,
  policyOutcome,
  policyReferences,
  previewResolution,
  RAW_WINDOW_MS,
  referenceLookbackMs,
} from "../src/index.ts";
import { e, hours, period, policy, utc } from "./helpers.ts";

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = utc(2024, 3, 6, 0, 0);
const macros = { host: "web01", service: "http", item: "latency" };

function samplesOf(values: number[], start = T0, stepMs = MINUTE): PreviewSamples {
  const v = Float64Array.from(values);
  return { timestamps: Float64Array.from(values, (_, i) => start + i * stepMs), values: v, low: v, high: v };
}

/** Should be lower than 100; WARNING above 110, CRITICAL above 130. */
const upper = policy({ periods: [period({ calcMethod: "<", warning: 10, critical: 30, hours: hours(100) })] });

describe("downsample", () => {
  it("keeps every peak and trough of a bucket while averaging it", () => {
    const timestamps = Float64Array.from({ length: 600 }, (_, i) => i * 60_000);
    const values = Float64Array.from({ length: 600 }, (_, i) => (i === 137 ? 1000 : i === 420 ? -50 : 10));
    const points = downsample({ timestamps, values, low: values, high: values }, { draft: null, deployed: null }, 0, 600 * 60_000, 60);
    expect(points).toHaveLength(60);
    expect(Math.max(...points.map((p) => p.max ?? 0))).toBe(1000);
    expect(Math.min(...points.map((p) => p.min ?? 0))).toBe(-50);
    expect(points[13]).toMatchObject({ ts: 13 * 600_000, max: 1000, min: 10, avg: 109 });
  });

  it("takes an hourly bucket's min and max, not only its mean", () => {
    const values = Float64Array.from([10, 20]);
    const samples = {
      timestamps: Float64Array.from([0, HOUR]),
      values,
      low: Float64Array.from([1, Number.NaN]),
      high: Float64Array.from([99, 25]),
    };
    expect(downsample(samples, { draft: null, deployed: null }, 0, 2 * HOUR, 2).map((p) => [p.min, p.avg, p.max])).toEqual([
      [1, 10, 99],
      [20, 20, 25],
    ]);
  });

  it("gives each bucket the curves' threshold at its start, and nulls where there is none or no sample", () => {
    const window = { from: T0, to: T0 + 10 * MINUTE, stepMs: MINUTE };
    const { curve } = policyOutcome(upper, samplesOf(Array(10).fill(90)), window, macros, undefined);
    const points = downsample(samplesOf([90, Number.NaN]), { draft: curve, deployed: curve }, T0, T0 + 10 * MINUTE, 10);
    expect(points[0]).toMatchObject({ avg: 90, threshold: 100, warning: 110, critical: 130, deployedThreshold: 100 });
    expect(points[1]).toMatchObject({ avg: null, min: null, max: null, threshold: 100 });
    expect(downsample(samplesOf([90]), { draft: null, deployed: null }, T0, T0 + MINUTE, 1)[0]?.threshold).toBeNull();
  });

  it("never loses the window's extremes, whatever the bucket count", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 500 }),
        fc.integer({ min: 1, max: 300 }),
        (values, buckets) => {
          const to = T0 + values.length * MINUTE;
          const points = downsample(samplesOf(values), { draft: null, deployed: null }, T0, to, buckets);
          expect(points.length).toBeLessThanOrEqual(buckets + 1);
          expect(Math.max(...points.map((p) => p.max ?? Number.NEGATIVE_INFINITY))).toBe(Math.max(...values));
          expect(Math.min(...points.map((p) => p.min ?? Number.POSITIVE_INFINITY))).toBe(Math.min(...values));
          for (const p of points) if (p.avg !== null) expect(p.min! <= p.avg + 1e-6 && p.avg <= p.max! + 1e-6).toBe(true);
        },
      ),
    );
  });
});

describe("previewResolution", () => {
  it.each([
    { span: DAY, resolution: "raw", stepMs: MINUTE },
    { span: RAW_WINDOW_MS, resolution: "raw", stepMs: MINUTE },
    { span: RAW_WINDOW_MS + 1, resolution: "1h", stepMs: HOUR },
    { span: 365 * DAY, resolution: "1h", stepMs: HOUR },
  ])("$span ms → $resolution", ({ span, resolution, stepMs }) => {
    expect(previewResolution(T0, T0 + span)).toEqual({ resolution, stepMs });
  });
});

describe("how far back the expressions read", () => {
  const back = (source: string) => referenceLookbackMs(references(source, { macros }));
  it.each([
    { source: "web01-http-latency[0]", ms: DAY },
    { source: "avg(web01-http-latency[0:9])", ms: DAY },
    { source: "avg(web01-http-latency[0:END])", ms: 400 * DAY },
    { source: "web01-http-latency[-7D]", ms: 7 * DAY + HOUR },
    { source: "avg(web01-http-latency[-2H:-4H])", ms: 5 * HOUR },
    { source: "avg(web01-http-latency[-2H:END])", ms: 400 * DAY },
    { source: "max(web01-http-latency[-10M], db01-pg-lag[-3D])", ms: 3 * DAY + HOUR },
  ])("$source → $ms ms", ({ source, ms }) => {
    expect(back(source)).toBe(ms);
  });

  it("reads nothing for constants and for expressions that do not parse", () => {
    expect(referenceLookbackMs([])).toBe(0);
    expect(policyReferences([upper, policy({ periods: [period({ hours: hours([e("avg(")]) })] })], macros)).toEqual([]);
  });
});

describe("policyOutcome", () => {
  it("reports what the policy would have raised over the window", () => {
    const { outcome } = policyOutcome(
      upper,
      samplesOf([105, 115, 115, 115, 115, 140, 90]),
      { from: T0, to: T0 + 7 * MINUTE, stepMs: MINUTE },
      macros,
      undefined,
    );
    expect(outcome.spans.map((s) => s.state)).toEqual(["WARNING", "CRITICAL"]);
    expect(outcome).toMatchObject({ spansTruncated: false, summary: { results: 7, alerts: 1 }, errors: [] });
  });

  it(`sends the first ${MAX_SPANS} spans and says there were more`, () => {
    const values = Array.from({ length: 2 * (MAX_SPANS + 1) }, (_, i) => (i % 2 === 0 ? 150 : 90));
    const { outcome } = policyOutcome(
      { ...upper, maxSoft: 0 },
      samplesOf(values),
      { from: T0, to: T0 + values.length * MINUTE, stepMs: MINUTE },
      macros,
      undefined,
    );
    expect(outcome.spans).toHaveLength(MAX_SPANS);
    expect(outcome.spansTruncated).toBe(true);
    expect(outcome.summary.alerts).toBe(MAX_SPANS + 1);
  });

  it("says why expression hours had no threshold: unknown series and syntax errors", () => {
    const data = new InMemorySeriesData();
    data.ensure("web01-http-latency");
    const mixed = policy({
      periods: [period({ hours: hours([e("web01-http-latency[-1D]"), e("db01-pg-lag[0]"), e("avg("), ...Array(21).fill(100)]) })],
    });
    const { outcome } = policyOutcome(mixed, samplesOf([90]), { from: T0, to: T0 + MINUTE, stepMs: MINUTE }, macros, data);
    expect(outcome.errors).toHaveLength(2);
    expect(outcome.errors[0]).toBe("unknown series 'db01-pg-lag'");
  });
});
