import type { Expr, Selector, TimeOffset } from "./ast.ts";
import { printSeriesName } from "./names.ts";
import { BINARY_PRECEDENCE, UNARY_PRECEDENCE } from "./parser.ts";

const ATOM = 9;

function precedenceOf(expr: Expr): number {
  if (expr.type === "binary") return BINARY_PRECEDENCE[expr.op];
  if (expr.type === "unary") return UNARY_PRECEDENCE;
  return ATOM;
}

function offset(o: TimeOffset): string {
  return `-${o.amount}${o.unit}`;
}

function selector(s: Selector): string {
  switch (s.kind) {
    case "index":
      return s.indices.join(",");
    case "indexRange":
      return `${s.from}:${s.to}`;
    case "nearest":
      return offset(s.offset);
    case "timeRange":
      return `${offset(s.from)}:${s.to === "END" ? "END" : offset(s.to)}`;
  }
}

/** Prints `expr` wrapped in parentheses when its precedence is below `min`. */
function operand(expr: Expr, min: number): string {
  const text = print(expr);
  return precedenceOf(expr) < min ? `(${text})` : text;
}

/** Canonical source text: parse(print(ast)) equals ast apart from source positions. */
export function print(expr: Expr): string {
  switch (expr.type) {
    case "number":
      return String(expr.value);
    case "null":
      return "null";
    case "string":
      return JSON.stringify(expr.value);
    case "ref":
      return `${printSeriesName(expr.name)}[${selector(expr.selector)}]`;
    case "call":
      return `${expr.name}(${expr.args.map(print).join(", ")})`;
    case "unary":
      return `${expr.op}${operand(expr.operand, UNARY_PRECEDENCE)}`;
    case "binary": {
      const p = BINARY_PRECEDENCE[expr.op];
      // `^` is right-associative and its right side is parsed as a unary expression.
      if (expr.op === "^") return `${operand(expr.left, ATOM)}^${operand(expr.right, UNARY_PRECEDENCE)}`;
      return `${operand(expr.left, p)} ${expr.op} ${operand(expr.right, p + 1)}`;
    }
  }
}
