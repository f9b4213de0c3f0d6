/**
 * Ported from Bischeck's src/test/java/com/ingby/socbox/bischeck/cache/CacheInfTest.java
 * (verifyCacheImp): the cache interface itself, here InMemorySeriesData. Values come back raw
 * (a stored null stays a null); Bischeck's "null" string of a missing index is null too.
 */
import { describe, expect, it } from "vitest";
import { InMemorySeriesData } from "../../src/index.ts";

const INTERVAL = 300_000;
const BASE = Date.UTC(2015, 5, 1, 12);
// System.currentTimeMillis() when the lookups run: a few milliseconds after the points were made.
const NOW = BASE + 22 * INTERVAL + 5;
const KEY = "test\\-server.ingby.com-service@first-_service.item_123";
const text = (values: readonly (number | null)[]) => values.map((v) => (v === null ? "null" : String(v))).join(",");

describe("CacheInfTest.verifyCacheImp", () => {
  const cache = new InMemorySeriesData();
  for (let i = 1; i < 22; i++) cache.append(KEY, BASE + i * INTERVAL, i === 11 ? null : i);

  it.each([
    [0, 21],
    [9, 12],
    [10, null],
    [25, null],
  ])("getByIndex(%s) = %s", (index, expected) => expect(cache.byIndex(KEY, index)).toBe(expected));

  it.each([
    [3, 6, "18,17,16,15"],
    [3, 3, "18"],
    [6, 12, "15,14,13,12,null,10,9"],
    [20, 30, "1"],
    [25, 30, ""],
    [0, Number.MAX_SAFE_INTEGER, "21,20,19,18,17,16,15,14,13,12,null,10,9,8,7,6,5,4,3,2,1"],
  ])("getByIndex(%s, %s) = %s (getAll for the whole range)", (from, to, expected) => {
    expect(text(cache.byIndexRange(KEY, from, to))).toBe(expected);
  });

  it.each([
    [NOW - 13 * 60_000, NOW - 20 * 60_000, "19,18"],
    [NOW - 13 * 60_000, NOW - 105 * 60_000, "19,18,17,16,15,14,13,12,null,10,9,8,7,6,5,4,3,2,1"],
    [NOW - 13 * 60_000, BASE + INTERVAL, "19,18,17,16,15,14,13,12,null,10,9,8,7,6,5,4,3,2,1"],
  ])("getByTime(%s, %s) = %s", (from, to, expected) => {
    expect(text(cache.timeRange(KEY, from, to))).toBe(expected);
  });
});
