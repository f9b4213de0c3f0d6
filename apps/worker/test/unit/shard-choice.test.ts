import type { DueShard } from "@tidemark/db/evaluation";
import { describe, expect, it } from "vitest";
import { preferOwnShards, shardsForBatch } from "../../src/shard-choice.ts";

const ORG = "3f2c0d1e-0000-4000-8000-000000000000";
const OTHER = "7a1b2c3d-0000-4000-8000-000000000000";
const due = (waits: number[]): DueShard[] =>
  waits.map((waitedMs, shard) => ({ organizationId: ORG, shard, waitedMs, rows: 1, points: 10 }));
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

describe("the shards one batch takes", () => {
  /** [organisation, shard, due rows, due points] in the order to try them. */
  type Due = [string, number, number, number];
  const taken = (list: Due[], maxRows = 200, wholeOrganizationPoints = 8000) =>
    shardsForBatch(
      list.map(([organizationId, shard, rows, points]) => ({ organizationId, shard, waitedMs: 0, rows, points })),
      { maxRows, maxPoints: 20_000, wholeOrganizationPoints },
    ).map((d) => `${d.organizationId === ORG ? "a" : "b"}${d.shard}`);

  it.each<{ name: string; list: Due[]; maxRows?: number; expected: string[] }>([
    {
      name: "a light cycle: every due shard of the organisation",
      list: [
        [ORG, 3, 1, 750],
        [ORG, 0, 1, 750],
        [ORG, 5, 2, 750],
      ],
      expected: ["a3", "a0", "a5"],
    },
    {
      name: "only the first one's organisation, whatever the order",
      list: [
        [ORG, 1, 1, 10],
        [OTHER, 1, 1, 10],
        [ORG, 2, 1, 10],
      ],
      expected: ["a1", "a2"],
    },
    {
      name: "up to the limit itself",
      list: [
        [ORG, 0, 1, 4000],
        [ORG, 1, 1, 4000],
      ],
      expected: ["a0", "a1"],
    },
    {
      name: "a backlog of points: one shard a batch",
      list: [
        [ORG, 0, 1, 4000],
        [ORG, 1, 1, 4001],
      ],
      expected: ["a0"],
    },
    {
      name: "a backlog of rows: one shard a batch",
      list: [
        [ORG, 6, 1, 5],
        [ORG, 7, 1, 5],
      ],
      maxRows: 1,
      expected: ["a6"],
    },
    {
      name: "another organisation's backlog does not count",
      list: [
        [ORG, 4, 1, 10],
        [OTHER, 2, 1, 50_000],
        [ORG, 5, 1, 10],
      ],
      expected: ["a4", "a5"],
    },
    {
      name: "a first shard past every limit still goes",
      list: [
        [OTHER, 0, 9, 50_000],
        [OTHER, 1, 1, 1],
      ],
      expected: ["b0"],
    },
    { name: "nothing due", list: [], expected: [] },
  ])("$name", ({ list, maxRows, expected }) => {
    expect(taken(list, maxRows)).toEqual(expected);
  });
});
