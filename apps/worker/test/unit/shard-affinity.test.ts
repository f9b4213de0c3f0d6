import { describe, expect, it } from "vitest";
import { preferOwnShards } from "../../src/evaluator.ts";

const ORG = "3f2c0d1e-0000-4000-8000-000000000000";
const due = (waits: number[]) => waits.map((waitedMs, shard) => ({ organizationId: ORG, shard, waitedMs }));
const shards = (list: { shard: number }[]) => list.map((d) => d.shard);

describe("the order a worker tries due shards in", () => {
  it("puts the shards it evaluated last first, the rest in queue order", () => {
    expect(shards(preferOwnShards(due([300, 200, 100, 50]), new Set([`${ORG}/2`, `${ORG}/3`])))).toEqual([2, 3, 0, 1]);
  });

  it("is queue order when the oldest work has waited more than a second, so that no shard starves", () => {
    expect(shards(preferOwnShards(due([1500, 200, 100]), new Set([`${ORG}/2`])))).toEqual([0, 1, 2]);
  });

  it("is queue order for a worker that evaluated none of them", () => {
    expect(shards(preferOwnShards(due([30, 20, 10]), new Set([`other/0`])))).toEqual([0, 1, 2]);
    expect(preferOwnShards([], new Set())).toEqual([]);
  });
});
