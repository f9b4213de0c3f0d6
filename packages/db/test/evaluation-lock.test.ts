import { describe, expect, it } from "vitest";
import { evaluationLockKey } from "../src/evaluation.ts";

describe("the organisation's evaluation lock key", () => {
  it("is the first 64 bits of its id, as a signed bigint", () => {
    expect(evaluationLockKey("00000000-0000-0001-ffff-ffffffffffff")).toBe(1n);
    expect(evaluationLockKey("ffffffff-ffff-ffff-0000-000000000000")).toBe(-1n);
    expect(evaluationLockKey("7FFFFFFF-FFFF-FFFF-0000-000000000000")).toBe(9223372036854775807n);
  });

  it("refuses anything but an id, since it is spliced into the statement", () => {
    expect(() => evaluationLockKey("1); DROP TABLE series; --")).toThrow(/not an organisation id/);
    expect(() => evaluationLockKey("")).toThrow(/not an organisation id/);
  });
});
