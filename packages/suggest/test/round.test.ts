import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundSignificant, roundWithin } from "../src/round.ts";

/** Significant digits of a number's shortest decimal text. */
function significantDigits(v: number): number {
  const [mantissa] = Math.abs(v).toExponential().split("e");
  return (mantissa ?? "").replace(".", "").replace(/0+$/, "").length;
}

describe("roundSignificant", () => {
  it.each([
    [84.60000000000001, 84.6],
    [15.700000000000001, 15.7],
    [1234.567, 1230],
    [0.012345, 0.0123],
    [-0.1 - 0.2, -0.3],
    [0, 0],
  ])("%s → %s", (input, expected) => {
    expect(roundSignificant(input)).toBe(expected);
  });

  it("gives at most three significant digits, no float noise, within half a unit of the third digit", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (v) => {
        const r = roundSignificant(v);
        expect(significantDigits(r)).toBeLessThanOrEqual(3);
        expect(String(r).length).toBeLessThanOrEqual(String(Number(r.toPrecision(3))).length);
        if (v !== 0) expect(Math.abs(r - v)).toBeLessThanOrEqual(Math.abs(v) * 0.005 + Number.EPSILON);
        expect(roundSignificant(r)).toBe(r);
      }),
    );
  });
});

describe("roundWithin", () => {
  it("never crosses the limit it is given", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), fc.constantFrom<"down" | "up">("down", "up"), (v, direction) => {
        const r = roundWithin(v, v, direction);
        if (direction === "down") expect(r).toBeLessThanOrEqual(v);
        else expect(r).toBeGreaterThanOrEqual(v);
        expect(significantDigits(r)).toBeLessThanOrEqual(4);
      }),
    );
    expect(roundWithin(90.909, 90.909, "down")).toBe(90.9);
    expect(roundWithin(99.96, 99.96, "down")).toBe(99.9);
  });
});
