/**
 * Ported from Bischeck's src/test/java/com/ingby/socbox/bischeck/jepext/PredictiveTest.java
 * (verifyPredictive, verifyPredictiveNull, verifyPredictiveSingle, verifyPredictiveExceptions).
 * The Java test only asserts null / not null; the fitted values are checked on a straight line.
 */
import { describe, expect, it } from "vitest";
import { evaluate, InMemorySeriesData, seriesKey } from "../../src/index.ts";

const NOW = Date.UTC(2015, 5, 1, 12);
const HALF_DAY = 12 * 3_600_000;
const ols = (args: string) => `ols(${args})`;
const names = '"pre-hos@t","preservice","predict/H"';

function predictiveData(): InMemorySeriesData {
  const data = new InMemorySeriesData();
  let current = NOW - 30 * 24 * 3_600_000;
  for (let i = 1; i < 59; i++) {
    const value = i % 2 === 0 ? i - Math.trunc(i / 2) : i + Math.trunc(i / 2);
    data.append(seriesKey("pre-hos@t", "preservice", "predict/H"), current + HALF_DAY, value);
    current += HALF_DAY;
  }
  return data;
}

describe("PredictiveTest.verifyPredictive", () => {
  const data = predictiveData();
  it.each([
    ols(`${names},"AVG","D","30","END"`),
    ols(`${names},"MIN","D","30","END"`),
    ols(`${names},"MAX","D","30","END"`),
    ols(`${names},"AVG","D","30","-28D"`),
    ols(`${names},"AVG","D","30","-30D"`),
    `${ols(`${names},"AVG","D","30","END"`)} * 2`,
    `${ols(`${names},"MIN","D","30","END"`)} * 2`,
    `${ols(`${names},"MAX","D","30","END"`)} * 2`,
  ])("%s is a number", (source) => {
    expect(evaluate(source, { now: NOW, data })).toEqual(expect.any(Number));
  });
  it("an unknown series gives null", () => {
    expect(
      evaluate(ols('"hostname1","servicename1","serviceitemname1","AVG","D","30","-30D"'), { now: NOW, data, unknownSeries: "null" }),
    ).toBeNull();
  });
  it("olss is null: Bischeck's OrdinaryLeastSquaresSlope passes forecast 0, which CalculateOLS rejects", () => {
    expect(evaluate(`olss(${names},"AVG","D","END")`, { now: NOW, data })).toBeNull();
  });
});

describe("PredictiveTest.verifyPredictiveNull / Single / Exceptions", () => {
  const data = new InMemorySeriesData();
  data.ensure("hostname-servicename-serviceitemname");
  const source = ols('"hostname","servicename","serviceitemname","AVG","D","30","END"');
  it("no points: null", () => expect(evaluate(source, { now: NOW, data })).toBeNull());
  it("a single point: null (fewer than two buckets)", () => {
    data.append("hostname-servicename-serviceitemname", NOW, 1000);
    expect(evaluate(source, { now: NOW, data })).toBeNull();
  });
  it("a forecast below 1 is rejected: null", () => {
    expect(evaluate(ols('"hostname","servicename","serviceitemname","AVG","D","-30","END"'), { now: NOW, data })).toBeNull();
  });
});

describe("ols fits a least-squares line over buckets", () => {
  it("one point a day rising by 10 forecasts the line's value `forecast` buckets ahead", () => {
    const data = new InMemorySeriesData();
    const start = Date.UTC(2015, 0, 1, 6);
    for (let d = 0; d < 10; d++) data.append("h-s-i", start + d * 86_400_000, 100 + 10 * d);
    // Buckets 0..9 hold 100..190; the array has 10 buckets, so forecast 1 is bucket 11: 210.
    expect(evaluate('ols("h","s","i","AVG","D","1","END")', { now: NOW, data })).toBeCloseTo(210, 9);
  });
});
