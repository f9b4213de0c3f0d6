/**
 * Ported from Bischeck's src/test/java/com/ingby/socbox/bischeck/cache/CacheTest.java
 * (allCacheTests via verifyCache, verifyCacheTime). CacheEvaluator.parse's substituted text is
 * compared with `cacheValues`: "18,17,16,15" is [18, 17, 16, 15], "null" is [null], and a
 * parse that returns null (no calculation) is null.
 */
import { describe, expect, it } from "vitest";
import { BadRangeError, cacheValues, type Expr, InMemorySeriesData, parse, type RefNode, seriesKey } from "../../src/index.ts";

const KEY = seriesKey("test-server.ingby.com", "service@first", "_service.item_123/");
const NAME = "test\\-server.ingby.com-service@first-_service.item_123/";
const INTERVAL = 300_000;
// The Java test takes "now" a few milliseconds after it computed `current`.
const BASE = Date.UTC(2015, 5, 1, 12, 0, 0);
const NOW = BASE + 22 * INTERVAL + 5;

/** Points 1..21 every five minutes, the 11th a null: the newest (21) five minutes before now. */
function allCacheTestsData(): InMemorySeriesData {
  const data = new InMemorySeriesData();
  for (let i = 1; i < 22; i++) data.append(KEY, BASE + i * INTERVAL, i === 11 ? null : i);
  return data;
}

/** Lists may only stand as list-function arguments: the reference is read out of `sum(…)`. */
function ref(selector: string): RefNode {
  const ast: Expr = parse(`sum(${NAME}[${selector}])`);
  const arg = ast.type === "call" ? ast.args[0] : undefined;
  if (arg?.type !== "ref") throw new Error("not a reference");
  return arg;
}

const values = (text: string | null) => (text === null ? null : text.split(",").map((v) => (v === "null" ? null : Number(v))));

describe("CacheTest.verifyCache (allCacheTests), notFullListParse=true", () => {
  const data = allCacheTestsData();
  it.each([
    ["0", "21"],
    ["9", "12"],
    ["10", "null"],
    ["3:6", "18,17,16,15"],
    ["6:12", "15,14,13,12,10,9"],
    ["25:30", "null"],
    ["15:3000", "6,5,4,3,2,1"],
    ["0:END", "21,20,19,18,17,16,15,14,13,12,10,9,8,7,6,5,4,3,2,1"],
    ["10:END", "10,9,8,7,6,5,4,3,2,1"],
    ["-5M:-120M", "null"],
    ["-1M", "null"],
    ["-5M", "null"],
    ["-6M", "21"],
    ["-9M", "20"],
    ["-10M", "20"],
    ["-11M", "20"],
    ["-14M", "19"],
    ["-15M", "19"],
    ["-20M", "18"],
    ["-25M", "17"],
    ["-27M", "17"],
    ["-30M", "16"],
    ["-13M:-20M", "19,18"],
    ["-6M:-20M", "21,20,19,18"],
    ["-11M:END", "20,19,18,17,16,15,14,13,12,10,9,8,7,6,5,4,3,2,1"],
    ["-11M:-105M", "20,19,18,17,16,15,14,13,12,10,9,8,7,6,5,4,3,2,1"],
    ["-11M:-106M", "20,19,18,17,16,15,14,13,12,10,9,8,7,6,5,4,3,2,1"],
    ["-1M:-118M", "null"],
    ["-120M", "null"],
  ])("[%s] → %s", (selector, expected) => {
    expect(cacheValues(ref(selector), { now: NOW, data, dropNulls: true })).toEqual(values(expected));
  });
});

describe("CacheTest.verifyCache (allCacheTests), notFullListParse=false", () => {
  const data = allCacheTestsData();
  it.each([
    ["0", "21"],
    ["9", "12"],
    ["3:6", "18,17,16,15"],
    ["6:12", null],
    ["25:30", null],
    ["15:END", "6,5,4,3,2,1"],
    ["-1H:END", "10,9,8,7,6,5,4,3,2,1"],
    ["-6M:-50M", "21,20,19,18,17,16,15,14,13,12"],
    ["-13M:-20M", "19,18"],
    ["-5M:-120M", null],
    ["-5M:END", null],
    ["-120M", null],
  ])("[%s] → %s", (selector, expected) => {
    expect(cacheValues(ref(selector), { now: NOW, data })).toEqual(values(expected));
  });
});

describe("CacheTest.verifyCacheTime", () => {
  const count = 2000;
  const base = Date.UTC(2015, 5, 1);
  const now = base + count * INTERVAL + 5;
  const data = new InMemorySeriesData();
  for (let i = 1; i <= count; i++) data.append(KEY, base + i * INTERVAL, i);
  it.each([
    ["-300S:-900S", "1999,1998,1997"],
    ["-5M:-15M", "1999,1998,1997"],
    [
      "-1H:-3H",
      "1988,1987,1986,1985,1984,1983,1982,1981,1980,1979,1978,1977,1976,1975,1974,1973,1972,1971,1970,1969,1968,1967,1966,1965,1964",
    ],
  ])("[%s] → %s", (selector, expected) => {
    expect(cacheValues(ref(selector), { now, data })).toEqual(values(expected));
  });
  it("[-3H:-1H] (from older than to): null in Bischeck; refused with its position in Tidemark (a threshold is null either way)", () => {
    expect(() => ref("-3H:-1H")).toThrow(BadRangeError);
  });
});
