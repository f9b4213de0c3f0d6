import { describe, expect, it } from "vitest";
import { unpackPoints } from "../src/preview.ts";

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
