import { describe, expect, it } from "vitest";
import {
  BadRangeError,
  type Expr,
  ExprError,
  ExprSyntaxError,
  LimitError,
  parse,
  print,
  type RefNode,
  stripPositions,
} from "../src/index.ts";

function ref(source: string): RefNode {
  const ast = parse(source);
  if (ast.type !== "ref") throw new Error(`not a reference: ${source}`);
  return ast;
}

function text(part: RefNode["name"]["host"]): string {
  return part.map((s) => (s.kind === "text" ? s.text : `<${s.name}>`)).join("");
}

function thrown(source: string): ExprError {
  try {
    parse(source);
  } catch (error) {
    if (error instanceof ExprError) return error;
    throw error;
  }
  throw new Error(`no error for ${source}`);
}

describe("reference forms", () => {
  it.each([
    ["h-s-i[0]", { kind: "index", indices: [0] }],
    ["h-s-i[3]", { kind: "index", indices: [3] }],
    ["sum(h-s-i[0:9])", null],
    ["sum(h-s-i[1,3,5])", null],
    ["h-s-i[-30M]", { kind: "nearest", offset: { amount: 30, unit: "M" } }],
    ["h-s-i[-45S]", { kind: "nearest", offset: { amount: 45, unit: "S" } }],
    ["h-s-i[-2H]", { kind: "nearest", offset: { amount: 2, unit: "H" } }],
  ])("%s", (source, selector) => {
    const ast = parse(source);
    if (selector !== null) expect(ast.type === "ref" && ast.selector).toEqual(selector);
    expect(print(ast)).toBe(source);
  });

  it.each([
    ["avg(h-s-i[0:9])", { kind: "indexRange", from: 0, to: 9 }],
    ["avg(h-s-i[1,3,5])", { kind: "index", indices: [1, 3, 5] }],
    ["avg(h-s-i[-30M:-120M])", { kind: "timeRange", from: { amount: 30, unit: "M" }, to: { amount: 120, unit: "M" } }],
    ["avg(h-s-i[-24H:END])", { kind: "timeRange", from: { amount: 24, unit: "H" }, to: "END" }],
  ])("list form %s as a function argument", (source, selector) => {
    const ast = parse(source);
    expect(ast.type === "call" && ast.args[0]?.type === "ref" && ast.args[0].selector).toEqual(selector);
    expect(print(ast)).toBe(source);
  });

  it("allows whitespace inside brackets and prints it canonically", () => {
    expect(print(parse("avg( h-s-i[ 0 : 9 ] )"))).toBe("avg(h-s-i[0:9])");
  });

  it.each([
    ["avg(h-s-i[9:0])", "runs backwards"],
    ["avg(h-s-i[-120M:-30M])", "newer offset"],
    ["avg(h-s-i[0:-30M])", "index after ':'"],
    ["avg(h-s-i[-30M:5])", "time offset or END"],
    ["avg(h-s-i[1,-30M])", "indices only"],
    ["avg(h-s-i[-30M,-40M])", "not time offsets"],
    ["h-s-i[1.5]", "whole number"],
    ["h-s-i[30M]", "starts with '-'"],
  ])("%s is a BadRangeError", (source, detail) => {
    const error = thrown(source);
    expect(error).toBeInstanceOf(BadRangeError);
    expect(error.code).toBe("BAD_RANGE");
    expect(error.message).toContain(detail);
  });

  it.each(["h-s-i[-30]", "h-s-i[-30X]", "h-s-i[]", "h-s-i[0", "avg(h-s-i[0:])"])("%s is a syntax error", (source) => {
    expect(thrown(source)).toBeInstanceOf(ExprSyntaxError);
  });

  it("refuses ranges and lists outside list functions", () => {
    for (const source of ["h-s-i[0:9]", "h-s-i[1,2] + 1", "abs(h-s-i[0:1])", "avg(h-s-i[0:9] + 1)", "pow(h-s-i[0,1], 2)"]) {
      const error = thrown(source);
      expect(error, source).toBeInstanceOf(ExprSyntaxError);
      expect((error as ExprSyntaxError).expected).toContain("single value");
    }
  });
});

describe("names", () => {
  it("splits on unescaped dashes only", () => {
    const r = ref("my\\-host-web\\-svc-resp\\-time[0]");
    expect([text(r.name.host), text(r.name.service), text(r.name.item)]).toEqual(["my-host", "web-svc", "resp-time"]);
  });

  it("accepts dots, digits and underscores inside names", () => {
    const r = ref("www.example.com-http_1-p99[0]");
    expect([text(r.name.host), text(r.name.service), text(r.name.item)]).toEqual(["www.example.com", "http_1", "p99"]);
  });

  it("reads a name starting with a digit, escaped or not, and prints it back plain (Bischeck's 10.0.0.1-ping-rtt)", () => {
    const r = ref("\\10.0.0.1-ping-rtt[0]");
    expect(text(r.name.host)).toBe("10.0.0.1");
    expect(print(r)).toBe("10.0.0.1-ping-rtt[0]");
    expect(stripPositions(ref("10.0.0.1-ping-rtt[0]"))).toEqual(stripPositions(r));
  });

  it("recognises macros in any part and keeps escaped dollars literal", () => {
    const r = ref("$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$_avg[0]");
    expect([text(r.name.host), text(r.name.service), text(r.name.item)]).toEqual(["<HOSTNAME>", "<SERVICENAME>", "<SERVICEITEMNAME>_avg"]);
    const literal = ref("\\$\\$HOSTNAME\\$\\$-s-i[0]");
    expect(literal.name.host).toEqual([{ kind: "text", text: "$$HOSTNAME$$" }]);
    expect(stripPositions(parse(print(literal)))).toEqual(stripPositions(literal));
  });

  it.each(["a-b[0]", "a-b-c-d[0]", "a--c[0]", "a-b-[0]"])("%s does not have exactly three parts", (source) => {
    const error = thrown(source);
    expect(error).toBeInstanceOf(ExprSyntaxError);
    expect(error.message).toContain("host-service-item");
  });

  it("a bare name is neither a reference nor a call", () => {
    const error = thrown("h-s-i + 1") as ExprSyntaxError;
    expect(error.expected).toContain("'['");
    expect(error.position).toMatchObject({ offset: 6, line: 1, column: 7 });
  });

  it("null is a literal", () => {
    expect(parse("null").type).toBe("null");
  });
});

describe("operators", () => {
  const shape = (source: string) => print(parse(source));
  it.each([
    ["1 + 2 * 3", "1 + 2 * 3"],
    ["(1 + 2) * 3", "(1 + 2) * 3"],
    ["1 - 2 - 3", "1 - 2 - 3"],
    ["1 - (2 - 3)", "1 - (2 - 3)"],
    ["-2^2", "-2^2"],
    ["(-2)^2", "(-2)^2"],
    ["2^3^2", "2^3^2"],
    ["(2^3)^2", "(2^3)^2"],
    ["2^-1", "2^-1"],
    ["1 < 2 == 1", "1 < 2 == 1"],
    ["1 || 0 && 0", "1 || 0 && 0"],
    ["(1 || 0) && 0", "(1 || 0) && 0"],
    ["!1 + 1", "!1 + 1"],
    ["--1", "--1"],
    ["1 - -1", "1 - -1"],
    ["10 % 3 * 2", "10 % 3 * 2"],
  ])("%s prints as %s", (source, printed) => {
    expect(shape(source)).toBe(printed);
  });

  it("binds * tighter than + and ^ tighter than unary minus", () => {
    const ast = parse("1 + 2 * 3") as Extract<Expr, { type: "binary" }>;
    expect(ast.op).toBe("+");
    expect(ast.right.type === "binary" && ast.right.op).toBe("*");
    const neg = parse("-2^2");
    expect(neg.type === "unary" && neg.operand.type === "binary" && neg.operand.op).toBe("^");
  });

  it("records spans on every node", () => {
    const ast = parse("avg(h-s-i[0], 2)\n + x-y-z[1]") as Extract<Expr, { type: "binary" }>;
    expect(ast.span).toEqual({ offset: 0, line: 1, column: 1, end: 28 });
    expect(ast.right.span).toEqual({ offset: 20, line: 2, column: 4, end: 28 });
    const call = ast.left as Extract<Expr, { type: "call" }>;
    expect(call.args[1]?.span).toEqual({ offset: 14, line: 1, column: 15, end: 15 });
  });
});

describe("syntax errors carry position, expectation and what was found", () => {
  it("reports an unclosed call at the end of input", () => {
    const error = thrown("avg(a-b-c[0]") as ExprSyntaxError;
    expect(error).toBeInstanceOf(ExprSyntaxError);
    expect(error.position).toEqual({ offset: 12, line: 1, column: 13 });
    expect(error.expected).toContain("')'");
    expect(error.found).toBe("end of input");
    expect(error.message).toBe("expected ',' or ')' at 1:13 but found end of input");
  });

  it.each([
    ["(1 + 2", "')' or an operator", "end of input", 6],
    ["1 +", "a number, a series reference, a function call or '('", "end of input", 3],
    ["1 2", "an operator or end of input", "'2'", 2],
    ["foo(1)", "a function name", "'foo'", 0],
    ["abs(1, 2)", "1 argument(s) for abs(x)", "2", 0],
    ["pow(1)", "2 argument(s) for pow(x, y)", "1", 0],
    ["1 # 2", "an expression", "'#'", 2],
    ["(1,2)", "')' or an operator", "','", 2],
    ["1e999", "a finite number", "'1e999'", 0],
  ])("%s", (source, expected, found, offset) => {
    const error = thrown(source) as ExprSyntaxError;
    expect(error).toBeInstanceOf(ExprSyntaxError);
    expect(error.code).toBe("SYNTAX");
    expect(error.expected).toBe(expected);
    expect(error.found).toBe(found);
    expect(error.position.offset).toBe(offset);
  });

  it("counts lines and columns", () => {
    const error = thrown("1 +\n  2 +\n    )");
    expect(error.position).toEqual({ offset: 14, line: 3, column: 5 });
    expect(error.message).toContain("at 3:5");
  });
});

describe("parse limits", () => {
  it("refuses 100 000 nested parentheses with a LimitError, not a stack overflow", () => {
    const source = `${"(".repeat(100_000)}1${")".repeat(100_000)}`;
    const error = (() => {
      try {
        parse(source, { limits: { maxSourceLength: 1_000_000 } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).limit).toBe("maxDepth");
    expect((error as LimitError).position.offset).toBe(64);
  });

  it("refuses deep unary chains and deep calls", () => {
    expect(thrown(`${"-".repeat(65)}1`)).toBeInstanceOf(LimitError);
    expect(thrown(`${"abs(".repeat(65)}1${")".repeat(65)}`)).toBeInstanceOf(LimitError);
    expect(() => parse(`${"abs(".repeat(63)}1${")".repeat(63)}`)).not.toThrow();
  });

  it("refuses over-long sources before scanning them", () => {
    const error = thrown("1+".repeat(5000));
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).limit).toBe("maxSourceLength");
  });

  it("bounds the tree height of long operator chains", () => {
    expect(() => parse(Array(2000).fill("1").join("+"))).not.toThrow();
    const error = (() => {
      try {
        parse(Array(3000).fill("1").join("+"));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LimitError);
  });

  it("takes overrides", () => {
    expect(() => parse("((1))", { limits: { maxDepth: 1 } })).toThrow(LimitError);
    expect(() => parse("12345", { limits: { maxSourceLength: 4 } })).toThrow(LimitError);
  });
});
