import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAge, formatCount, formatNumber } from "../../src/lib/format";

describe("formatNumber", () => {
  it.each([
    [105.89150000000001, "105.9"],
    [0.1 + 0.2, "0.3"],
    [12000, "12000"],
    [1234567, "1234567"],
    [1234567.891, "1234568"],
    [9999.4, "9999"],
    [99.995, "100"],
    [0.000123456, "0.0001235"],
    [-42.123456, "-42.12"],
    [-0.00001, "-0.00001"],
    [-0, "0"],
    [0, "0"],
    [7, "7"],
    [1e21, "1000000000000000000000"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "∞"],
    [Number.NEGATIVE_INFINITY, "−∞"],
  ])("%s → %s", (n, text) => {
    expect(formatNumber(n)).toBe(text);
  });

  it("writes a missing value as the placeholder", () => {
    expect(formatNumber(null)).toBe("—");
    expect(formatNumber(undefined, "NA")).toBe("NA");
  });

  it("never writes an exponent, a separator or more than four significant digits after the integer part", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (n) => {
        const text = formatNumber(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        const digits = text.replace(/^-?0*\.?0*/, "").replace(".", "");
        expect(digits.length).toBeLessThanOrEqual(Math.max(4, String(Math.round(Math.abs(n))).length));
      }),
    );
  });

  it("stays within half a unit of its last digit", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (n) => {
        const text = formatNumber(n);
        const decimals = text.split(".")[1]?.length ?? 0;
        const ulp = 10 ** -decimals;
        expect(Math.abs(Number(text) - n)).toBeLessThanOrEqual(Math.max(ulp / 2, Math.abs(n) * 5e-4) + 1e-9);
      }),
    );
  });
});

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [12345, "12\u2009345"],
    [1234567, "1\u2009234\u2009567"],
  ])("%s → %s", (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});

describe("formatAge", () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  it.each([
    [null, "never"],
    [now - 2_000, "now"],
    [now - 45_000, "45 s"],
    [now - 12 * 60_000 - 30_000, "12 min"],
    [now - 3 * 3_600_000, "3 h"],
    [now - 47 * 3_600_000, "47 h"],
    [now - 5 * 86_400_000, "5 d"],
    [now + 60_000, "now"],
  ])("%s → %s", (at, text) => {
    expect(formatAge(at, now)).toBe(text);
  });
});
