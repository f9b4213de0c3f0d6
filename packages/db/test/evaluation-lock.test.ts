import { describe, expect, it } from "vitest";
import { EVALUATION_SHARDS, evaluationLockKey } from "../src/evaluation.ts";

describe("an organisation shard's evaluation lock key", () => {
  it("is the first 61 bits of the organisation's id, then the shard, as a signed bigint", () => {
    expect(evaluationLockKey("00000000-0000-0008-ffff-ffffffffffff", 0)).toBe(8n);
    expect(evaluationLockKey("00000000-0000-0008-ffff-ffffffffffff", 7)).toBe(15n);
    expect(evaluationLockKey("ffffffff-ffff-ffff-0000-000000000000", 7)).toBe(-1n);
    expect(evaluationLockKey("7FFFFFFF-FFFF-FFFF-0000-000000000000", 7)).toBe(9223372036854775807n);
  });

  it("differs for every shard of one organisation", () => {
    const keys = new Set(
      Array.from({ length: EVALUATION_SHARDS }, (_, shard) => evaluationLockKey("3f2c0d1e-0000-4000-8000-000000000000", shard)),
    );
    expect(keys.size).toBe(EVALUATION_SHARDS);
  });

  it("refuses anything but an id and a shard, since both are spliced into the statement", () => {
    expect(() => evaluationLockKey("1); DROP TABLE series; --", 0)).toThrow(/not an organisation id/);
    expect(() => evaluationLockKey("", 0)).toThrow(/not an organisation id/);
    expect(() => evaluationLockKey("00000000-0000-0008-ffff-ffffffffffff", EVALUATION_SHARDS)).toThrow(/not an evaluation shard/);
    expect(() => evaluationLockKey("00000000-0000-0008-ffff-ffffffffffff", 0.5)).toThrow(/not an evaluation shard/);
  });
});
