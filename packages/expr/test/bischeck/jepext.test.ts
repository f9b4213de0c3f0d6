/**
 * Ported from Bischeck's src/test/java/com/ingby/socbox/bischeck/jepext/JEPExtTest.java
 * (verifyFunctions), both branches: notFullListParse=true (`dropNulls`) and false. Bischeck
 * returns a Java Float, so results are compared after rounding to single precision.
 */
import { describe, expect, it } from "vitest";
import { evaluate, InMemorySeriesData } from "../../src/index.ts";

const f32 = (x: number | null) => (x === null ? null : Math.fround(x));
const calc = (source: string, dropNulls: boolean) => f32(evaluate(source, { now: 0, data: new InMemorySeriesData(), dropNulls }));

const BOTH: readonly [string, number | null][] = [
  ["avg(1,2,3,4,5)", 3],
  [`avg(${Array.from({ length: 100 }, (_, i) => i + 1).join(",")})`, 50.5],
  ["max(2,6,4,1,2)", 6],
  ["min(2,6,4,1,2)", 1],
  ["min(2,6,4,1,2)/min(2,6,4,1,2)", 1],
  ["avg(2,6,1,2)", 2.75],
  ["avg(2,6,1,2) / avg(2,6,1,2)", 1],
  ["avgNull(null,null,null,4,2)", 3],
  ["avgNull(null,null,null,null,null)", null],
  ["multNull(4.0,6.0)", 24],
];

const SUPPORT_NULL: readonly [string, number | null][] = [
  ["min(2,6,null,1,2)/min(2,6,4,null,2)", 0.5],
  ["avg(null,null,null,4,2)", 3],
  ["avg(2,6,null,1,2)", 2.75],
  ["avg(2,6,null,1,2) / avg(1,3,null,1,1)", 1.8333334],
  ["avg(null,2,6,null,null,1,2,null) / sum(null,2,6,null,null,1,2,null) * 100", 25],
  ["avg(null,2,6,null,null,1,2,null) / (sum(null,2,6,null,null,1,2,null) * max(2,6,100,1,2))", 0.0025],
  ["divNull(1, avg(2,6,1,2))", 0.36363637],
  ["divNull(null, avg(2,6,null,1,2))", null],
  ["avg(null*2,2)", null],
  ["avg(multNull(null,2),2)", 2],
  ["multNull(null,6.0)", null],
  ["multNull(avg(null, null),0.5)", null],
  ["avg( multNull(avg(null, 1),0.5) , 10)", 5.25],
  ["avg( 20, multNull(avg(null, 1),0.5) , 10)", 10.166666667],
  ["avg(multNull(null,2), multNull(1,3))", 3],
  ["avg(multNull(null,2), multNull(null,3))", null],
  ["avg(null, 6 ,max(null,null), 2, multNull(null,3), min(10,null,6))", 4.6666665],
  ["avg(9.250759E8, 9.3080077E8)* 1.2", 1.11352602e9],
  ["multNull(avg(1.09064474E9, 1.07112954E9),0.5)", 5.4044358e8],
  ["avg(multNull(avg(9.250759E8, 9.3080077E8),1.2), multNull(avg(1.09064474E9, 1.07112954E9),0.5))", 8.2698477e8],
  [
    "avg(multNull(avg(9.250759E8, 9.3080077E8),1.2), multNull(avg(null, null),0.5), multNull(avg(1.09064474E9, 1.07112954E9),0.5))",
    8.2698477e8,
  ],
  [
    "avg(multNull(avg(7.9990118E8, 8.4381606E8),1.2), multNull(avg(7.2747757E8, 8.567257E8),1.2), multNull(avg(null, null),0.5), multNull(avg(8.657216E8,1.10524186E9),0.5), multNull(avg(8.1859027E8, 9.0977683E8),1.2), multNull(avg(7.8139014E8, 9.1235091E8),1.2), multNull(avg(8.2275789E8,9.4512352E8),1.2))",
    9.239145e8,
  ],
  ["sum(null, null)", null],
  ["sum()", null],
  ["stddev(2, 4, 4, 4, 5, 5, 7, 9 )", 2],
  ["stddev(2, 4, 4, 4, null, 5, 5, 7, 9 )", 2],
  ["stddev( null, null )", null],
  ["avg(stddev(2, 4, 4, 4, 5, 5, 7, 9 ), stddev(2, 4, 4, 4, 5, 5, 7, 9 ))", 2],
  ["avg(stddev(2, 4, 4, 4, 5, 5, 7, 9 ), multNull(4,stddev(2, 4, 4, 4, 5, 5, 7, 9 )))", 5],
  ["median(2, 4)", 3],
  ["median(2, 3, 4)", 3],
  ["median(2, 3, 4, 5)", 3.5],
  ["avgMad(25.33, 30.45, 22.43, 35.86, 30123.45, 50125.5)", 28.5175],
  ["avgMad(102, 104, 108, 160, 107, 60)", 105.25],
  ["avgMadT(3, 102, 104, 108, 160, 107, 60)", 105.25],
];

const NO_SUPPORT_NULL: readonly [string, number | null][] = [
  ["avg(null,null,null,4,2)", null],
  ["avg(2,6,null,1,2)", null],
  ["avg(2,6,null,1,2) / avg(2,6,null,1,2)", null],
  ["multNull(4.0,6.0)", 24],
  ["multNull(null,6.0)", null],
  ["min(2,6,1,2)/min(2,6,4,2)", 0.5],
  ["avg(4,2)", 3],
  ["avg(2,6,1,2)", 2.75],
  ["avg(2,6,1,2) / avg(1,3,1,1)", 1.8333334],
  ["avg(2,6,1,2) / sum(2,6,1,2) * 100", 25],
  ["avg(2,6,1,2) / (sum(2,6,1,2) * max(2,6,100,1,2))", 0.0025],
  ["divNull(1, avg(2,6,1,2))", 0.36363637],
  ["divNull(null, avg(2,6,null,1,2))", null],
  ["avg(null*2,2)", null],
  ["avg(multNull(null,2),2)", null],
  ["multNull(avg(null, null),0.5)", null],
  ["avg( multNull(avg( 1),0.5) , 10)", 5.25],
  ["avg( 20, multNull(avg( 1),0.5) , 10)", 10.166666667],
  ["avg(multNull(null,2), multNull(1,3))", null],
  ["avg(multNull(null,2), multNull(null,3))", null],
  ["avg( 6 , 2, multNull(null,3), min(10,6))", null],
  ["avg(9.250759E8, 9.3080077E8)* 1.2", 1.11352602e9],
  ["multNull(avg(1.09064474E9, 1.07112954E9),0.5)", 5.4044358e8],
  ["avg(multNull(avg(9.250759E8, 9.3080077E8),1.2), multNull(avg(1.09064474E9, 1.07112954E9),0.5))", 8.2698477e8],
  ["avg(multNull(avg(9.250759E8, 9.3080077E8),1.2), multNull(avg(),0.5), multNull(avg(1.09064474E9, 1.07112954E9),0.5))", null],
  ["avgMad(25.33, 30.45, 22.43, 35.86, 30123.45, 50125.5)", 28.5175],
  ["avgMad(102, 104, 108, 160, 107, 60)", 105.25],
  ["avgMadT(3, 102, 104, 108, 160, 107, 60)", 105.25],
];

describe("JEPExtTest.verifyFunctions", () => {
  describe.each([true, false])("notFullListParse=%s: common cases", (dropNulls) => {
    it.each(BOTH)("%s = %s", (source, expected) => expect(calc(source, dropNulls)).toBe(f32(expected)));
  });
  describe("notFullListParse=true (supportNull branch)", () => {
    it.each(SUPPORT_NULL)("%s = %s", (source, expected) => expect(calc(source, true)).toBe(f32(expected)));
  });
  describe("notFullListParse=false (the else branch)", () => {
    it.each(NO_SUPPORT_NULL)("%s = %s", (source, expected) => expect(calc(source, false)).toBe(f32(expected)));
  });
});
