import { describe, expect, it } from "vitest";
import * as api from "../src/index.ts";
import {
  type EvalContext,
  ExprError,
  ExprEvalError,
  evaluate,
  FUNCTIONS,
  InMemorySeriesData,
  LimitError,
  parse,
  type SeriesData,
  UnknownSeriesError,
} from "../src/index.ts";
import { MINUTE, minuteSeries, NOW, seriesKey, seriesWith } from "./helpers.ts";

const ctx = (data: SeriesData, extra: Partial<EvalContext> = {}): EvalContext => ({ now: NOW, data, ...extra });
const constant = (source: string) => evaluate(source, ctx(new InMemorySeriesData()));

describe("references against a one-point-a-minute series (0..99, 99 newest at now)", () => {
  const data = minuteSeries();
  it.each([
    ["h-s-i[0]", 99],
    ["h-s-i[3]", 96],
    ["h-s-i[99]", 0],
    ["h-s-i[100]", null],
    ["sum(h-s-i[0:9])", 99 + 98 + 97 + 96 + 95 + 94 + 93 + 92 + 91 + 90],
    ["sum(h-s-i[1,3,5])", 98 + 96 + 94],
    ["h-s-i[-30M]", 69],
    ["h-s-i[-0S]", 99],
    ["h-s-i[-90S]", 97], // 90 s ago is equally far from 1 and 2 minutes ago: the older point wins (Bischeck)
    ["h-s-i[-1H]", 39],
    ["h-s-i[-5H]", null], // older than the oldest point: null (Bischeck)
    ["avg(h-s-i[-30M:-60M])", (69 + 39) / 2],
    ["sum(h-s-i[-90M:END])", (9 * 10) / 2],
    ["max(h-s-i[-10M:-20M])", 89],
    ["min(h-s-i[-10M:-20M])", 79],
  ])("%s = %s", (source, expected) => {
    expect(evaluate(source, ctx(data))).toBe(expected);
  });

  it("a time range maps each end to its nearest index, so a range between two points holds the nearest one", () => {
    expect(evaluate("avg(h-s-i[-10S:-20S])", ctx(data))).toBe(99);
  });

  it("with points 1 s off the minute, a time range maps each end to its nearest point (a timestamp filter would give 7.5)", () => {
    const off = new InMemorySeriesData();
    for (let k = 1; k <= 5; k++) off.append("h-s-i", NOW - k * MINUTE + 1000, 11 - k);
    // -2M is nearest the point 119 s old (9), -4M the one 239 s old (7): avg(9, 8, 7).
    expect(evaluate("avg(h-s-i[-2M:-4M])", ctx(off))).toBe(8);
  });

  it("a series whose newest point is three days old has no value 5 minutes ago (Bischeck: null)", () => {
    const old = seriesWith([4, 5, 6]);
    expect(evaluate("h-s-i[-5M]", ctx(old, { now: NOW + 3 * 24 * 60 * MINUTE }))).toBeNull();
  });

  it("a time offset counts back from the context's now", () => {
    expect(evaluate("h-s-i[-10M]", ctx(data, { now: NOW - 30 * MINUTE }))).toBe(59);
  });

  it("an index range past the history holds what exists (Bischeck's cache returns no padding)", () => {
    const short = seriesWith([10, 20, 30]);
    expect(evaluate("avg(h-s-i[0:9])", ctx(short))).toBe(20);
    expect(evaluate("avg(h-s-i[0:9])", ctx(short, { dropNulls: true }))).toBe(20);
  });
});

describe("escapes and macros resolve to series keys", () => {
  const data = new InMemorySeriesData();
  data.append(seriesKey("my-host", "svc", "item"), NOW, 7);
  data.append(seriesKey("web01", "http", "resp"), NOW, 11);
  data.append(seriesKey("web01", "http", "resp_avg"), NOW, 13);
  data.append(seriesKey("w-alias", "http", "resp"), NOW, 17);
  const macros = { host: "web01", service: "http", item: "resp", aliases: { HOSTALIAS: "w-alias" } };

  it.each([
    ["my\\-host-svc-item[0]", 7],
    ["$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[0]", 11],
    ["$$HOSTNAME$$-http-$$SERVICEITEMNAME$$_avg[0]", 13],
    ["$$HOSTALIAS$$-http-resp[0]", 17],
  ])("%s = %s", (source, expected) => {
    expect(evaluate(source, ctx(data, { macros }))).toBe(expected);
  });

  it("one compiled expression serves many items: each macros object gets its own key", () => {
    const source = "$$HOSTNAME$$-http-$$SERVICEITEMNAME$$[0]";
    const first = { host: "web01", service: "http", item: "resp" };
    const second = { host: "w-alias", service: "http", item: "resp" };
    for (let round = 0; round < 3; round++) {
      expect(evaluate(source, ctx(data, { macros: first }))).toBe(11);
      expect(evaluate(source, ctx(data, { macros: second }))).toBe(17);
    }
  });

  it.each([
    ["web01-http-resp[0] + avg(web01-http-resp[0:3])", false],
    ["web01-http-resp[-10M]", true],
    ["max(1, web01-http-resp[-10M:-1H])", true],
    ["-(2 * web01-http-resp[-30S])", true],
    ["42", false],
  ])("%s reads the time: %s", (source, readsTime) => {
    expect(api.compiled(source).readsTime).toBe(readsTime);
  });

  it("EvalError is the design's name for ExprEvalError", () => {
    expect(api.EvalError).toBe(ExprEvalError);
  });

  it("an undefined macro is a typed error", () => {
    expect(() => evaluate("$$NOPE$$-s-i[0]", ctx(data, { macros }))).toThrow(ExprEvalError);
    expect(() => evaluate("$$HOSTNAME$$-s-i[0]", ctx(data))).toThrow(/unknown macro '\$\$HOSTNAME\$\$' at 1:1/);
  });
});

describe("unknown series", () => {
  const data = minuteSeries();
  it("is an UnknownSeriesError with the reference's position by default", () => {
    try {
      evaluate("1 + x-y-z[0]", ctx(data));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UnknownSeriesError);
      expect((error as UnknownSeriesError).series).toBe("x-y-z");
      expect((error as UnknownSeriesError).position).toEqual({ offset: 4, line: 1, column: 5 });
    }
  });

  it("reads as null with unknownSeries: null", () => {
    const opts = { unknownSeries: "null" as const };
    expect(evaluate("x-y-z[0]", ctx(data, opts))).toBeNull();
    expect(evaluate("avg(x-y-z[0:9])", ctx(data, opts))).toBeNull();
    expect(evaluate("avg(x-y-z[-1H:END])", ctx(data, opts))).toBeNull();
    expect(evaluate("avg(x-y-z[0:9], h-s-i[0])", ctx(data, { ...opts, dropNulls: true }))).toBe(99);
  });

  it("a declared but empty series is no data, not unknown", () => {
    const empty = new InMemorySeriesData();
    empty.ensure("h-s-i");
    expect(evaluate("h-s-i[0]", ctx(empty))).toBeNull();
    expect(evaluate("h-s-i[-5M]", ctx(empty))).toBeNull();
  });
});

describe("functions", () => {
  it.each([
    ["round(2.5)", 3],
    ["round(-2.5)", -2],
    ["round(2.345, 2)", 2.35],
    ["ceil(1.2)", 2],
    ["floor(-1.2)", -2],
    ["abs(-4)", 4],
    ["mod(7, 3)", 1],
    ["mod(-7, 3)", -1],
    ["sqrt(16)", 4],
    ["ln(exp(2))", 2],
    ["log(1000)", 3],
    ["exp(0)", 1],
    ["pow(2, 10)", 1024],
    ["sum(1, 2, 3)", 6],
    ["avg(1, 2, 3, 4)", 2.5],
    ["max(3, 9, 2)", 9],
    ["min(3, 9, 2)", 2],
    ["stdev(2, 4, 4, 4, 5, 5, 7, 9)", 2],
    ["stdev(5)", 0],
    ["median(5, 1, 3)", 3],
    ["median(4, 1, 3, 2)", 2.5],
    ["multNull(3, 4)", 12],
    ["divNull(12, 4)", 3],
    ["divNull(1, 0)", null],
    ["if(1, 10, 20)", 10],
    ["if(0, 10, 20)", 20],
    ["if(-0.5, 10, 20)", 20], // JEP: then only when cond > 0
    ["sqrt(-1)", null], // NaN is JEP's no value
    ["mod(1, 0)", null],
  ])("%s = %s", (source, expected) => {
    const v = constant(source);
    if (typeof expected === "number" && !Number.isInteger(expected)) expect(v).toBeCloseTo(expected, 12);
    else expect(v).toBe(expected);
  });

  it("FUNCTIONS lists every function with its arity", () => {
    expect(FUNCTIONS.map((f) => f.name).sort()).toEqual(
      [
        "abs",
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atan",
        "atan2",
        "atanh",
        "avg",
        "avgMad",
        "avgMadT",
        "avgNull",
        "ceil",
        "cos",
        "cosh",
        "divNull",
        "exp",
        "floor",
        "if",
        "ln",
        "log",
        "max",
        "median",
        "min",
        "mod",
        "multNull",
        "ols",
        "olss",
        "pow",
        "round",
        "sin",
        "sinh",
        "sqrt",
        "stddev",
        "stdev",
        "sum",
        "sumNull",
        "tan",
        "tanh",
      ].sort(),
    );
    expect(FUNCTIONS.find((f) => f.name === "avg")).toMatchObject({ minArgs: 0, maxArgs: null, acceptsLists: true });
    expect(FUNCTIONS.find((f) => f.name === "if")).toMatchObject({ minArgs: 3, maxArgs: 4, acceptsLists: false });
    for (const f of FUNCTIONS) expect(f.description.length).toBeGreaterThan(5);
  });

  it("spreads ranges and lists into list-function arguments next to scalars", () => {
    const data = minuteSeries();
    expect(evaluate("sum(h-s-i[0:1], 1000, h-s-i[5,6], h-s-i[-2M:-3M])", ctx(data))).toBe(99 + 98 + 1000 + 94 + 93 + 97 + 96);
    expect(evaluate("median(h-s-i[0:2], h-s-i[0])", ctx(data))).toBe(98.5);
  });
});

describe("null semantics", () => {
  const data = seriesWith([5, null, 7]);
  it.each([
    ["h-s-i[1]", null],
    ["h-s-i[1] + 1", null],
    ["-h-s-i[1]", null],
    ["!h-s-i[1]", null],
    ["h-s-i[1] > 0", null],
    ["abs(h-s-i[1])", null],
    ["pow(2, h-s-i[1])", null],
    ["multNull(h-s-i[1], 2)", null],
    ["divNull(2, h-s-i[1])", null],
    ["if(h-s-i[1], 1, 2)", null],
    ["if(1, 1, h-s-i[1])", null], // Bischeck reads every reference first: any null makes the result null
    ["null", null],
    ["null * 0", null],
    ["h-s-i[1] && 0", null],
    ["0 && h-s-i[1]", null],
    ["1 || h-s-i[1]", null],
    ["0 || h-s-i[1]", null],
  ])("%s = %s", (source, expected) => {
    expect(evaluate(source, ctx(data))).toBe(expected);
  });

  it.each(["sum", "avg", "max", "min", "stdev", "median"])("%s propagates null unless dropNulls is set", (fn) => {
    expect(evaluate(`${fn}(h-s-i[0:2])`, ctx(data))).toBeNull();
    const dropped = evaluate(`${fn}(h-s-i[0:2])`, ctx(data, { dropNulls: true }));
    const expected: Record<string, number> = { sum: 12, avg: 6, max: 7, min: 5, stdev: 1, median: 6 };
    expect(dropped).toBe(expected[fn]);
    expect(evaluate(`${fn}(h-s-i[1], null)`, ctx(data, { dropNulls: true }))).toBeNull();
  });
});

describe("operators", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["2 ^ 3 ^ 2", 512],
    ["-2 ^ 2", -4],
    ["7 % 4", 3],
    ["12 / 4 / 3", 1],
    ["1 < 2", 1],
    ["2 <= 1", 0],
    ["3 >= 3", 1],
    ["3 > 3", 0],
    ["2 == 2", 1],
    ["2 != 2", 0],
    ["!0", 1],
    ["!5", 0],
    ["1 && 2", 1],
    ["0 || 0", 0],
    ["1 + 1 == 2 && 3 > 2", 1],
  ])("%s = %s", (source, expected) => {
    expect(constant(source)).toBe(expected);
  });

  it.each([
    ["1 / 0", "division by zero"],
    ["1 % 0", "division by zero"],
    ["ln(0)", "ln"],
    ["10 ^ 400", "'^'"],
  ])("%s is an ExprEvalError (%s)", (source, detail) => {
    expect(() => constant(source)).toThrow(ExprEvalError);
    expect(() => constant(source)).toThrow(detail);
  });
});

describe("evaluation limits", () => {
  const data = minuteSeries();
  it("refuses a range above maxListSize before fetching it", () => {
    let fetched = false;
    const spy: SeriesData = {
      ...wrap(data),
      byIndexRange: () => {
        fetched = true;
        return [];
      },
    };
    expect(() => evaluate("avg(h-s-i[0:100000])", ctx(spy))).toThrow(LimitError);
    expect(fetched).toBe(false);
    expect(() => evaluate("avg(h-s-i[0:99999999999])", ctx(spy))).toThrow(LimitError);
  });

  it("refuses a time range that yields too many points", () => {
    expect(() => evaluate("avg(h-s-i[-0S:END])", ctx(data, { limits: { maxListSize: 50 } }))).toThrow(/maxListSize/);
    expect(evaluate("avg(h-s-i[-0S:END])", ctx(data, { limits: { maxListSize: 100 } }))).toBe(49.5);
  });

  it("counts spread arguments together", () => {
    expect(() => evaluate("sum(h-s-i[0:59], h-s-i[0:59])", ctx(data, { limits: { maxListSize: 100 } }))).toThrow(LimitError);
  });

  it("stops after maxSteps", () => {
    const source = `sum(${Array(200).fill("h-s-i[0:99]").join(", ")})`;
    expect(() => evaluate(source, ctx(data, { limits: { maxSteps: 10_000 } }))).toThrow(/maxSteps/);
    expect(evaluate(source, ctx(data))).toBe(200 * 4950);
  });

  it("takes the parse limits from the context too, without poisoning the cache", () => {
    expect(() => evaluate("((1))", ctx(data, { limits: { maxDepth: 1 } }))).toThrow(LimitError);
    expect(evaluate("((1))", ctx(data))).toBe(1);
    expect(() => evaluate("((1))", ctx(data, { limits: { maxDepth: 1 } }))).toThrow(LimitError);
  });
});

describe("pre-parsed ASTs", () => {
  it("evaluates the same tree against changing data", () => {
    const ast = parse("avg(h-s-i[0:1])");
    const data = new InMemorySeriesData();
    data.append("h-s-i", 1, 10);
    data.append("h-s-i", 2, 20);
    expect(evaluate(ast, ctx(data))).toBe(15);
    data.append("h-s-i", 3, 40);
    expect(evaluate(ast, ctx(data))).toBe(30);
  });

  it("rejects hand-built trees the parser would refuse, with typed errors", () => {
    const span = { offset: 0, line: 1, column: 1, end: 1 };
    const bad = { type: "call", name: "nope", args: [], span } as const;
    expect(() => evaluate(bad, ctx(new InMemorySeriesData()))).toThrow(ExprError);
    const arity = { type: "call", name: "abs", args: [], span } as const;
    expect(() => evaluate(arity, ctx(new InMemorySeriesData()))).toThrow(ExprError);
  });
});

function wrap(data: SeriesData): SeriesData {
  return {
    has: (s) => data.has(s),
    byIndex: (s, i) => data.byIndex(s, i),
    byIndexRange: (s, f, t) => data.byIndexRange(s, f, t),
    nearest: (s, at) => data.nearest(s, at),
    timeRange: (s, f, t, m) => data.timeRange(s, f, t, m),
  };
}
