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
  const candidates = (list: [string, number, number, number][]): DueShard[] =>
    list.map(([organizationId, shard, rows, points]) => ({ organizationId, shard, waitedMs: 0, rows, points }));
  const taken = (list: [string, number, number, number][], maxRows: number, maxPoints: number) =>
    shardsForBatch(candidates(list), { maxRows, maxPoints }).map((d) => `${d.organizationId === ORG ? "a" : "b"}${d.shard}`);

  it.each([
    {
      name: "light work: every due shard of the organisation",
      list: [
        [ORG, 3, 1, 750],
        [ORG, 0, 1, 750],
        [ORG, 5, 2, 750],
      ],
      rows: 200,
      points: 20_000,
      expected: ["a3", "a0", "a5"],
    },
    {
      name: "only the first organisation's shards, whatever the order",
      list: [
        [ORG, 1, 1, 10],
        [OTHER, 1, 1, 10],
        [ORG, 2, 1, 10],
      ],
      rows: 200,
      points: 20_000,
      expected: ["a1", "a2"],
    },
    {
      name: "the first shard even when it alone exceeds the limits",
      list: [
        [ORG, 4, 9, 50_000],
        [ORG, 5, 1, 10],
      ],
      rows: 200,
      points: 20_000,
      expected: ["a4"],
    },
    {
      name: "points: a shard that does not fit is skipped, a later smaller one taken",
      list: [
        [ORG, 0, 1, 12_000],
        [ORG, 1, 1, 9_000],
        [ORG, 2, 1, 8_000],
      ],
      rows: 200,
      points: 20_000,
      expected: ["a0", "a2"],
    },
    {
      name: "rows: one row a batch takes one shard",
      list: [
        [ORG, 6, 1, 5],
        [ORG, 7, 1, 5],
      ],
      rows: 1,
      points: 20_000,
      expected: ["a6"],
    },
    {
      name: "rows: the limit is inclusive",
      list: [
        [ORG, 6, 1, 5],
        [ORG, 7, 1, 5],
        [ORG, 0, 1, 5],
      ],
      rows: 2,
      points: 10,
      expected: ["a6", "a7"],
    },
    { name: "nothing due", list: [], rows: 200, points: 20_000, expected: [] },
  ] as { name: string; list: [string, number, number, number][]; rows: number; points: number; expected: string[] }[])(
    "$name",
    ({ list, rows, points, expected }) => {
      expect(taken(list, rows, points)).toEqual(expected);
    },
  );
});
