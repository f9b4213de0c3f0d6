import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forward, inverse, type Transform, transformFor } from "../src/transform.ts";

describe("scales", () => {
  it.each<Transform>([{ kind: "identity" }, { kind: "sqrt" }, { kind: "log", offset: 0.5 }, { kind: "log", offset: 40 }])(
    "inverse undoes forward for non-negative values ($kind)",
    (t) => {
      fc.assert(
        fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (v) => {
          expect(Math.abs(inverse(t, forward(t, v)) - v)).toBeLessThanOrEqual(1e-9 * Math.max(1, v));
        }),
      );
    },
  );

  it("forward keeps the order of values (a line above a value stays above it after the round trip)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Transform>({ kind: "sqrt" }, { kind: "log", offset: 3 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (t, a, b) => {
          if (a < b) expect(forward(t, a)).toBeLessThanOrEqual(forward(t, b));
        },
      ),
    );
  });

  it.each([
    { name: "a signed metric", values: [-1, 2, 3], nonNegative: false, expected: { kind: "identity" } },
    { name: "a non-negative gauge", values: [0, 2, 4, 6, 9], nonNegative: true, expected: { kind: "log", offset: 5 } },
    { name: "bursty counts", values: [1, 2, 2, 3, 200], nonNegative: true, expected: { kind: "log", offset: 2 } },
    { name: "a mostly-zero counter", values: [0, 0, 0, 1, 5], nonNegative: true, expected: { kind: "sqrt" } },
    { name: "all zeros", values: [0, 0], nonNegative: true, expected: { kind: "sqrt" } },
  ])("$name → $expected.kind", ({ values, nonNegative, expected }) => {
    expect(transformFor(values, nonNegative)).toEqual(expected);
  });
});
