/**
 * Ported from Bischeck's src/test/java/com/ingby/socbox/bischeck/serviceitem/CalculateOnCacheTest.java
 * (verifyService, verifyServiceException, verifyServiceNull, verifyAggregationNaming,
 * verifyAggregationNamingDash). Bischeck prints the result as a Float ("7.0").
 */
import { describe, expect, it } from "vitest";
import { ExprSyntaxError, evaluate, InMemorySeriesData, seriesKey } from "../../src/index.ts";

const NOW = Date.UTC(2015, 5, 1, 12);
const f32 = (x: number | null) => (x === null ? null : Math.fround(x));
const run = (source: string, data: InMemorySeriesData, dropNulls = false) => f32(evaluate(source, { now: NOW, data, dropNulls }));

describe("CalculateOnCacheTest.verifyService", () => {
  // Names with a dash, dots, '@', a leading '_' and (for the second item) a space, written escaped.
  const key1 = "test\\-server.ingby.com-service@first-_service.item_123";
  const key2 = "host2_score.ingby.com-service\\-dash@-.service_item0.\\ space";
  const data = new InMemorySeriesData();
  for (let i = 1; i < 11; i++) {
    data.append(seriesKey("test-server.ingby.com", "service@first", "_service.item_123"), NOW - 10 * 300_000 + i * 300_000, i);
    data.append(seriesKey("host2_score.ingby.com", "service-dash@", ".service_item0. space"), NOW - 10 * 300_000 + i * 300_000, i);
  }
  it.each([
    [`if ((${key1}[2] - ${key2}[1]) < 0, ${key1}[2] - ${key2}[9], 0)`, 7],
    [`${key1}[1] - ${key1}[0]`, -1],
    [`${key1}[0] - ${key1}[11]`, null],
    [`${key1}[9]-${key1}[0]`, -9],
    [`${key1}[4]*${key2}[3]`, 42],
    [`sum(${key1}[7]*${key1}[1])/sum(${key2}[3:7])`, 1.08],
    [`${key1}[0] * 0.8`, 8],
    ["10 * 0.8", 8],
  ])("%s = %s", (source, expected) => expect(run(source, data)).toBe(f32(expected)));
});

describe("CalculateOnCacheTest.verifyServiceException", () => {
  it("xyz * 0.8 is refused", () => {
    expect(() => evaluate("xyz * 0.8", { now: NOW, data: new InMemorySeriesData() })).toThrow(ExprSyntaxError);
  });
});

describe("CalculateOnCacheTest.verifyServiceNull", () => {
  const data = new InMemorySeriesData();
  const k1 = seriesKey("host1null", "service1null", "service_item1null");
  // Appended oldest first: null, 24, null, 12 → [0]=12, [1]=null, [2]=24, [3]=null.
  for (const [i, v] of [null, 24, null, 12].entries()) data.append(k1, NOW - (3 - i) * 1000, v);
  data.append(seriesKey("host2null", "service2null", "service_item2null"), NOW, 100);
  const c1 = "host1null-service1null-service_item1null";
  const c2 = "host2null-service2null-service_item2null";

  it("avg(c1[0], c2[0]) = 56 in both modes", () => {
    expect(run(`avg(${c1}[0],${c2}[0])`, data)).toBe(56);
    expect(run(`avg(${c1}[0],${c2}[0])`, data, true)).toBe(56);
  });

  describe("notFullListParse=true", () => {
    it.each([
      [`avg(${c1}[1],${c2}[0])`, 100],
      [`avg(${c1}[1],${c2}[0]) * ${c1}[1]`, null],
      [`avg(${c1}[1]*2,${c2}[0])`, null],
      [`avg(${c1}[0]*2,${c2}[1])`, 24],
      [`avg(${c1}[1], multNull(${c2}[0], ${c1}[1]))`, null],
      [`avg(multNull(${c1}[1],2),${c2}[0])`, 100],
      [`avg(multNull(${c1}[1],2), multNull(${c2}[0],2),multNull(${c1}[2],2))`, 124],
      [`avg(divNull(${c1}[1],2), divNull(${c2}[0],2),divNull(${c1}[2],2))`, 31],
    ])("%s = %s", (source, expected) => expect(run(source, data, true)).toBe(expected));
  });

  describe("notFullListParse=false", () => {
    it.each([
      [`avg(${c1}[1],${c2}[0])`, null],
      [`avg(${c1}[1],${c2}[0]) * ${c1}[1]`, null],
    ])("%s = %s", (source, expected) => expect(run(source, data)).toBe(expected));
  });
});

describe("CalculateOnCacheTest.verifyAggregationNaming / verifyAggregationNamingDash", () => {
  it.each([
    ["G1BS01", "Beam35UTsonline/H/avg/weekend", "G1BS01-Beam35UTsonline/H/avg/weekend-UTsonline"],
    ["G1BS01", "Beam-35UTsonline/H/avg/weekend", "G1BS01-Beam\\-35UTsonline/H/avg/weekend-UTsonline"],
  ])("avg(%s-%s-UTsonline[0], …[1]) = 9.5", (host, service, written) => {
    const data = new InMemorySeriesData();
    for (let i = 1; i < 11; i++) data.append(seriesKey(host, service, "UTsonline"), NOW - 10 * 300_000 + i * 300_000, i);
    expect(run(`avg(${written}[0],${written}[1])`, data)).toBe(9.5);
  });
});
