import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mad, median, quantileSorted, sortedCopy } from "../src/stats.ts";

describe("median", () => {
  it.each([
    [[], Number.NaN],
    [[3], 3],
    [[5, 1], 3],
    [[9, 1, 5], 5],
    [[4, 4, 1, 9], 4],
  ])("%j → %s", (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it("equals the sorted middle (selection agrees with sorting)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }), (values) => {
        expect(median(values)).toBeCloseTo(quantileSorted(sortedCopy(values), 0.5), 9);
      }),
    );
  });

  it("MAD is scaled to σ and zero for a constant", () => {
    expect(mad([5, 5, 5], 5)).toBe(0);
    expect(mad([1, 2, 3, 4, 5], 3)).toBeCloseTo(1.4826, 4);
  });
});
