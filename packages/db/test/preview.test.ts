import { describe, expect, it } from "vitest";
import { downsample, unpackPoints } from "../src/preview.ts";

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
});

describe("unpackPoints", () => {
  it("reads timestamps relative to the origin and empty values as null", () => {
    const { timestamps, values } = unpackPoints("0 1.5,60000 ,120000 -2e-7", 1_000);
    expect([...timestamps]).toEqual([1_000, 61_000, 121_000]);
    expect(values[0]).toBe(1.5);
    expect(Number.isNaN(values[1])).toBe(true);
    expect(values[2]).toBe(-2e-7);
    expect(unpackPoints(null, 0).timestamps).toHaveLength(0);
  });
});
