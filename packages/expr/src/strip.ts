import type { Expr } from "./ast.ts";

/** The AST without source spans, for comparing trees that came from different texts. */
export function stripPositions(expr: Expr): unknown {
  switch (expr.type) {
    case "number":
      return { type: "number", value: expr.value };
    case "null":
      return { type: "null" };
    case "string":
      return { type: "string", value: expr.value };
    case "ref":
      return { type: "ref", name: expr.name, selector: expr.selector };
    case "call":
      return { type: "call", name: expr.name, args: expr.args.map(stripPositions) };
    case "unary":
      return { type: "unary", op: expr.op, operand: stripPositions(expr.operand) };
    case "binary":
      return { type: "binary", op: expr.op, left: stripPositions(expr.left), right: stripPositions(expr.right) };
  }
}
