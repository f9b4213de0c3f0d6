import type { Period, ThresholdPolicy } from "@tidemark/thresholds";
import type { AggregateBucket } from "../src/index.ts";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** A Monday, 00:00 UTC. */
export const MONDAY = Date.UTC(2026, 0, 5);

export function period(calcMethod: Period["calcMethod"] = "<", over: Partial<Period> = {}): Period {
  return {
    months: [],
    weeks: [],
    calcMethod,
    warning: 10,
    critical: 30,
    hours: { entries: Array(24).fill(null), levels: Array(24).fill(null) },
    ...over,
  };
}

export function policy(calcMethod: Period["calcMethod"] = "<", over: Partial<ThresholdPolicy> = {}): ThresholdPolicy {
  return { periods: [period(calcMethod)], holidays: [], nullState: "UNKNOWN", maxSoft: 3, timeZone: "UTC", ...over };
}

/** Deterministic noise in [0, 1): the fractional part of a large sine, stepped per call. */
export function random(seed: number): () => number {
  let n = seed;
  return () => {
    const x = Math.sin(++n * 12.9898) * 43758.5453;
    return x - Math.floor(x);
  };
}

/** 5-minute buckets of one value each from `value(ts)` over `days` days from `start`; null values stay null. */
export function fiveMinute(days: number, value: (ts: number, i: number) => number | null, start = MONDAY): AggregateBucket[] {
  return Array.from({ length: (days * DAY) / (5 * MINUTE) }, (_, i) => {
    const ts = start + i * 5 * MINUTE;
    const v = value(ts, i);
    return { ts, avg: v, min: v, max: v };
  });
}

/** Hourly buckets built from 5-minute ones, as the continuous aggregate builds them. */
export function hourly(buckets: readonly AggregateBucket[]): AggregateBucket[] {
  const out = new Map<number, { sum: number; n: number; min: number; max: number }>();
  for (const b of buckets) {
    if (b.avg === null || b.min === null || b.max === null) continue;
    const ts = Math.floor(b.ts / HOUR) * HOUR;
    const o = out.get(ts) ?? { sum: 0, n: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
    out.set(ts, { sum: o.sum + b.avg, n: o.n + 1, min: Math.min(o.min, b.min), max: Math.max(o.max, b.max) });
  }
  return [...out.entries()].map(([ts, o]) => ({ ts, avg: o.sum / o.n, min: o.min, max: o.max }));
}
