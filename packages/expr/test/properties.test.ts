import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BinaryOp,
  type Expr,
  ExprError,
  evaluate,
  InMemorySeriesData,
  type NamePart,
  type NameSegment,
  parse,
  print,
  type Selector,
  type SeriesName,
  stripPositions,
  type TimeOffset,
} from "../src/index.ts";
import { NOW } from "./helpers.ts";

const span = { offset: 0, line: 1, column: 1, end: 0 };

const nameChar = fc.constantFrom("a", "Z", "0", "9", "_", ".", "-", "$", "\\", " ", "ä", "[", "(", ":", "@", "/");
const text = fc.string({ unit: nameChar, minLength: 1, maxLength: 6 });
const macro = fc.constantFrom("HOSTNAME", "SERVICENAME", "SERVICEITEMNAME", "HOST_ALIAS2");

/** Canonical parts: adjacent text segments merged, no empty text. */
const part: fc.Arbitrary<NamePart> = fc
  .array(
    fc.oneof(
      text.map((t): NameSegment => ({ kind: "text", text: t })),
      macro.map((m): NameSegment => ({ kind: "macro", name: m })),
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((segments) => {
    const merged: NameSegment[] = [];
    for (const s of segments) {
      const last = merged[merged.length - 1];
      if (s.kind === "text" && last?.kind === "text") merged[merged.length - 1] = { kind: "text", text: last.text + s.text };
      else merged.push(s);
    }
    return merged;
  });
const seriesName: fc.Arbitrary<SeriesName> = fc.record({ host: part, service: part, item: part });

const offset: fc.Arbitrary<TimeOffset> = fc.record({
  amount: fc.integer({ min: 0, max: 100_000 }),
  unit: fc.constantFrom("S", "M", "H", "D"),
});
const index = fc.integer({ min: 0, max: 10_000 });
const scalarSelector: fc.Arbitrary<Selector> = fc.oneof(
  index.map((i): Selector => ({ kind: "index", indices: [i] })),
  offset.map((o): Selector => ({ kind: "nearest", offset: o })),
);
const listSelector: fc.Arbitrary<Selector> = fc.oneof(
  fc.array(index, { minLength: 2, maxLength: 4 }).map((indices): Selector => ({ kind: "index", indices })),
  fc.tuple(index, index).map(([a, b]): Selector => ({ kind: "indexRange", from: Math.min(a, b), to: Math.max(a, b) })),
  fc.tuple(offset, fc.option(offset, { nil: undefined })).map(([a, b]): Selector => {
    if (b === undefined) return { kind: "timeRange", from: a, to: "END" };
    const ms = (o: TimeOffset) => o.amount * { S: 1, M: 60, H: 3600, D: 86_400 }[o.unit];
    return ms(a) <= ms(b) ? { kind: "timeRange", from: a, to: b } : { kind: "timeRange", from: b, to: a };
  }),
);

const ops: readonly BinaryOp[] = ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "^"];
const SCALAR_FNS: readonly [string, number][] = [
  ["abs", 1],
  ["round", 1],
  ["round", 2],
  ["pow", 2],
  ["if", 3],
  ["divNull", 2],
  ["multNull", 2],
  ["sqrt", 1],
];
const LIST_FNS = ["sum", "avg", "max", "min", "stdev", "median"] as const;

const { expr } = fc.letrec<{ expr: Expr; arg: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.double({ min: 0, max: 1e300, noNaN: true }).map((v): Expr => ({ type: "number", value: Math.abs(v), span })),
    fc.integer({ min: 0, max: 1000 }).map((v): Expr => ({ type: "number", value: v, span })),
    fc.constant<Expr>({ type: "null", span }),
    fc.record({ name: seriesName, selector: scalarSelector }).map((r): Expr => ({ type: "ref", ...r, span })),
    fc.record({ op: fc.constantFrom("-" as const, "!" as const), operand: tie("expr") }).map((r): Expr => ({ type: "unary", ...r, span })),
    fc.record({ op: fc.constantFrom(...ops), left: tie("expr"), right: tie("expr") }).map((r): Expr => ({ type: "binary", ...r, span })),
    fc
      .constantFrom(...SCALAR_FNS)
      .chain(([name, arity]) =>
        fc.array(tie("expr"), { minLength: arity, maxLength: arity }).map((args): Expr => ({ type: "call", name, args, span })),
      ),
    fc
      .record({ name: fc.constantFrom(...LIST_FNS), args: fc.array(tie("arg"), { minLength: 1, maxLength: 3 }) })
      .map((r): Expr => ({ type: "call", ...r, span })),
  ),
  arg: fc.oneof(
    tie("expr"),
    fc.record({ name: seriesName, selector: listSelector }).map((r): Expr => ({ type: "ref", ...r, span })),
  ),
}));

describe("parse(print(ast)) equals ast modulo positions", () => {
  it("holds for generated trees", () => {
    fc.assert(
      fc.property(expr, (ast) => {
        expect(stripPositions(parse(print(ast), { limits: { maxSourceLength: 1_000_000 } }))).toEqual(stripPositions(ast));
      }),
      { numRuns: 500 },
    );
  });

  it("printing is a fixed point on parsed text", () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const once = print(ast);
        expect(print(parse(once, { limits: { maxSourceLength: 1_000_000 } }))).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});

describe("evaluation throws nothing but ExprError", () => {
  const data = new InMemorySeriesData();
  for (let i = 0; i < 50; i++) data.append("h-s-i", NOW - i * 60_000, i % 7 === 0 ? null : i);
  const macros = { host: "h", service: "s", item: "i" };
  const alphabet = fc.constantFrom(..."h-s-i[0:9],-30M END()+-*/%^<>=!&|. $\\1234567890avgsumifabsnullHMS".split(""));
  const tokens = fc.constantFrom(
    "h-s-i",
    "[0]",
    "[0:9]",
    "[-30M]",
    "[-1H:END]",
    "avg(",
    "if(",
    ")",
    ",",
    "+",
    "-",
    "*",
    "/",
    "^",
    "(",
    "1",
    "0",
    "null",
    "$$HOSTNAME$$",
    "\\-",
    "==",
    "&&",
  );

  const check = (source: string) => {
    for (const dropNulls of [false, true]) {
      try {
        const v = evaluate(source, { now: NOW, data, macros, dropNulls, unknownSeries: "null" });
        expect(v === null || Number.isFinite(v)).toBe(true);
      } catch (error) {
        if (!(error instanceof ExprError)) throw error;
        expect(error.position.offset).toBeGreaterThanOrEqual(0);
        expect(error.position.offset).toBeLessThanOrEqual(source.length);
      }
    }
  };

  it("on random characters", () => {
    fc.assert(fc.property(fc.string({ unit: alphabet, maxLength: 40 }), check), { numRuns: 2000 });
  });

  it("on random token soup", () => {
    fc.assert(
      fc.property(
        fc.array(tokens, { maxLength: 30 }).map((t) => t.join("")),
        check,
      ),
      { numRuns: 2000 },
    );
  });

  it("on printed generated trees", () => {
    fc.assert(
      fc.property(expr, (ast) => check(print(ast))),
      { numRuns: 300 },
    );
  });

  it("on any unicode string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 30 }), check), { numRuns: 1000 });
  });
});
