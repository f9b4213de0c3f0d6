import { type BinaryOp, type CallNode, type Expr, isListSelector, type RefNode, type Span } from "./ast.ts";
import { ExprEvalError } from "./errors.ts";
import { anyNull, compileFetch, type Fetch, keyOf } from "./fetch.ts";
import { arityProblem, type ListDef, lookupFunction, type RegressionDef } from "./functions.ts";
import { DEFAULT_LIMITS, type Limits, resolveLimits } from "./limits.ts";
import type { Macros } from "./names.ts";
import { ordinaryLeastSquares } from "./regression.ts";
import { checkListSize, finite, Poison, poison, type Runtime, step } from "./runtime.ts";
import type { SeriesData } from "./series-data.ts";

export interface EvalContext {
  /** Epoch milliseconds that time offsets such as `-30M` count back from. */
  readonly now: number;
  readonly data: SeriesData;
  readonly macros?: Macros;
  /**
   * Bischeck's notFullListParse. Off (Bischeck's default): any null value read makes the result
   * null. On: nulls are removed from ranges and skipped by list functions.
   */
  readonly dropNulls?: boolean;
  /** "error" (default) throws UnknownSeriesError for a series `data` does not have; "null" reads it as no data. */
  readonly unknownSeries?: "error" | "null";
  readonly limits?: Partial<Limits>;
}

const { maxSteps: DEFAULT_MAX_STEPS, maxListSize: DEFAULT_MAX_LIST } = DEFAULT_LIMITS;

/** A value or Bischeck's Null object (null); failures throw Poison. */
type Scalar = (rt: Runtime) => number | null;
type Values = (rt: Runtime) => readonly (number | null)[];

export interface CompiledExpr {
  readonly ast: Expr;
  /** Whether the result depends on `now` (a time-offset reference); if not, only on the data. */
  readonly readsTime: boolean;
  run(context: EvalContext): number | null;
}

function readsTime(expr: Expr): boolean {
  switch (expr.type) {
    case "ref":
      return expr.selector.kind === "nearest" || expr.selector.kind === "timeRange";
    case "call":
      return expr.args.some(readsTime);
    case "unary":
      return readsTime(expr.operand);
    case "binary":
      return readsTime(expr.left) || readsTime(expr.right);
    default:
      return false;
  }
}

/** Compilation state: every reference gets a slot, filled before evaluation. */
class Compiler {
  readonly fetches: Fetch[] = [];

  private slot(node: RefNode): number {
    this.fetches.push(compileFetch(node));
    return this.fetches.length - 1;
  }

  scalarRef(node: RefNode): Scalar {
    if (isListSelector(node.selector)) throw new ExprEvalError("a range or list reference where a single value is expected", node.span);
    const slot = this.slot(node);
    return (rt) => rt.slots[slot] as number | null;
  }

  listRef(node: RefNode): Values {
    const slot = this.slot(node);
    return (rt) => {
      const v = rt.slots[slot] as number | null | readonly (number | null)[];
      return typeof v === "number" || v === null ? [v] : v;
    };
  }

  binary(op: BinaryOp, left: Scalar, right: Scalar, span: Span): Scalar {
    const f = ARITHMETIC[op];
    const what = `the result of '${op}'`;
    const divides = op === "/" || op === "%";
    return (rt) => {
      step(rt, 1, span);
      const a = left(rt);
      const b = right(rt);
      // JEP evaluates both operands; an operator on Bischeck's Null fails the expression.
      if (a === null || b === null) poison();
      if (divides && b === 0) throw new ExprEvalError("division by zero (divNull gives null instead)", span);
      return finite(f(a, b), span, what);
    };
  }

  /** All arguments of a list function as one list; ranges and index lists are spread in place. */
  arguments(args: readonly Expr[], span: Span): Values {
    const [only] = args;
    if (args.length === 1 && only !== undefined && only.type === "ref" && isListSelector(only.selector)) return this.listRef(only);
    const parts = args.map((arg): { list: Values } | { scalar: Scalar } =>
      arg.type === "ref" && isListSelector(arg.selector) ? { list: this.listRef(arg) } : { scalar: this.scalar(arg) },
    );
    return (rt) => {
      const out: (number | null)[] = [];
      for (const part of parts) {
        if ("scalar" in part) {
          out.push(part.scalar(rt));
          continue;
        }
        const values = part.list(rt);
        checkListSize(rt, out.length + values.length, span);
        for (let i = 0; i < values.length; i++) out.push(values[i] as number | null);
      }
      return out;
    };
  }

  list(fn: ListDef, node: CallNode): Scalar {
    const span = node.span;
    const leading = node.args.slice(0, fn.leading).map((a) => this.scalar(a));
    const values = this.arguments(node.args.slice(fn.leading), span);
    const empty = node.args.length === fn.leading;
    const what = `the result of ${node.name}(…)`;
    const impl = fn.impl;
    const rule = fn.nulls;
    return (rt) => {
      step(rt, 1, span);
      // JEP's "No arguments for Sum": the expression fails.
      if (empty) poison();
      const fixed = leading.map((l) => l(rt) ?? poison());
      const kept = withoutNulls(values(rt), rule === "skip" || (rule === "mode" && rt.dropNulls));
      return kept === null ? null : finite(impl(kept, fixed), span, what);
    };
  }

  nullable(op: "mult" | "div", node: CallNode): Scalar {
    const args = node.args.map((a) => this.scalar(a));
    const span = node.span;
    const what = `the result of ${node.name}(…)`;
    if (op === "div") {
      const [a, b] = args as [Scalar, Scalar];
      return (rt) => {
        step(rt, 1, span);
        const x = a(rt);
        const y = b(rt);
        if (x === null || y === null || y === 0) return null;
        return finite(x / y, span, what);
      };
    }
    return (rt) => {
      step(rt, 1, span);
      const values = args.map((a) => a(rt));
      // Bischeck's NullableMultiply, from the last argument back: a null argument gives null, but
      // multiplying into a null product (a null last argument) fails the expression.
      let product = values[values.length - 1] as number | null;
      for (let i = values.length - 2; i >= 0; i--) {
        const v = values[i] as number | null;
        if (v === null) return null;
        if (product === null) poison();
        product = v * product;
      }
      return product === null ? null : finite(product, span, what);
    };
  }

  regression(fn: RegressionDef, node: CallNode): Scalar {
    const text = node.args.map((a) => (a.type === "string" ? a.value : ""));
    const [host, service, item] = text as [string, string, string];
    const method = text[3] as string;
    const resolution = text[4] as string;
    const forecast = fn.result === "forecast" ? (text[5] as string) : "0";
    const offset = text[text.length - 1] as string;
    const ref: RefNode = {
      type: "ref",
      name: { host: [{ kind: "text", text: host }], service: [{ kind: "text", text: service }], item: [{ kind: "text", text: item }] },
      selector: { kind: "index", indices: [0] },
      span: node.span,
    };
    const key = keyOf(ref);
    const span = node.span;
    return (rt) => {
      step(rt, 1, span);
      const series = key(rt);
      // Bischeck's olss passes forecast 0, which CalculateOLS rejects: olss is always null there.
      if (series === null || fn.result === "slope") return null;
      return finite(ordinaryLeastSquares(rt.data, { series, method, resolution, forecast, offset }), span, `the result of ${node.name}(…)`);
    };
  }

  call(node: CallNode): Scalar {
    const fn = lookupFunction(node.name);
    if (fn === undefined) throw new ExprEvalError(`unknown function '${node.name}'`, node.span);
    const problem = arityProblem(fn, node.args.length);
    if (problem !== null) throw new ExprEvalError(`expected ${problem}`, node.span);
    const span = node.span;
    switch (fn.kind) {
      case "if": {
        const [cond, then, otherwise, zero] = node.args.map((a) => this.scalar(a)) as [Scalar, Scalar, Scalar, Scalar | undefined];
        return (rt) => {
          step(rt, 1, span);
          // JEP's If: then when cond > 0; else when cond < 0 or there is no fourth argument.
          const c = cond(rt) ?? poison();
          if (c > 0) return then(rt);
          return zero === undefined || c < 0 ? otherwise(rt) : zero(rt);
        };
      }
      case "list":
        return this.list(fn, node);
      case "nullable":
        return this.nullable(fn.op, node);
      case "regression":
        return this.regression(fn, node);
      case "scalar": {
        const args = node.args.map((a) => this.scalar(a));
        const impl = fn.impl;
        const what = `the result of ${node.name}(…)`;
        return (rt) => {
          step(rt, 1, span);
          const numbers: number[] = new Array(args.length);
          for (let i = 0; i < args.length; i++) numbers[i] = (args[i] as Scalar)(rt) ?? poison();
          const result = impl(numbers);
          return result === null ? null : finite(result, span, what);
        };
      }
    }
  }

  scalar(node: Expr): Scalar {
    switch (node.type) {
      case "number": {
        const value = node.value;
        return () => value;
      }
      case "null":
        return () => null;
      case "string":
        throw new ExprEvalError("a quoted name where a number is expected", node.span);
      case "ref":
        return this.scalarRef(node);
      case "call":
        return this.call(node);
      case "unary": {
        const operand = this.scalar(node.operand);
        const span = node.span;
        const negate = node.op === "-";
        return (rt) => {
          step(rt, 1, span);
          const v = operand(rt) ?? poison();
          return negate ? -v : v === 0 ? 1 : 0;
        };
      }
      case "binary":
        return this.binary(node.op, this.scalar(node.left), this.scalar(node.right), node.span);
    }
  }
}

const ARITHMETIC: Readonly<Record<BinaryOp, (a: number, b: number) => number>> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
  "^": (a, b) => a ** b,
  "==": (a, b) => (a === b ? 1 : 0),
  "!=": (a, b) => (a !== b ? 1 : 0),
  "<": (a, b) => (a < b ? 1 : 0),
  "<=": (a, b) => (a <= b ? 1 : 0),
  ">": (a, b) => (a > b ? 1 : 0),
  ">=": (a, b) => (a >= b ? 1 : 0),
  "&&": (a, b) => (a !== 0 && b !== 0 ? 1 : 0),
  "||": (a, b) => (a !== 0 || b !== 0 ? 1 : 0),
};

/**
 * Bischeck's list functions on JEP's stack: with `drop`, nulls are skipped and nothing left is
 * null; without, a null fails the expression.
 */
function withoutNulls(values: readonly (number | null)[], drop: boolean): readonly number[] | null {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === null) nulls++;
  if (nulls === 0) return values as readonly number[];
  if (!drop) poison();
  if (nulls === values.length) return null;
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) kept.push(v);
  }
  return kept;
}

/**
 * Turns an AST into a closure tree once, so that repeated evaluation does no tree walking,
 * no key building and no function lookup.
 */
export function compile(ast: Expr): CompiledExpr {
  const compiler = new Compiler();
  const root = compiler.scalar(ast);
  const fetches = compiler.fetches;
  return {
    ast,
    readsTime: readsTime(ast),
    run(context: EvalContext): number | null {
      const rt = fetchAll(context, fetches);
      // Without notFullListParse Bischeck does not calculate when any value read is null.
      if (!rt.dropNulls && anyNull(rt.slots)) return null;
      try {
        return root(rt);
      } catch (error) {
        if (error instanceof Poison) return null;
        throw error;
      }
    },
  };
}

function fetchAll(context: EvalContext, fetches: readonly Fetch[]): Runtime {
  const limits = context.limits === undefined ? undefined : resolveLimits(context.limits);
  const rt: Runtime = {
    data: context.data,
    now: context.now,
    macros: context.macros,
    dropNulls: context.dropNulls === true,
    unknownNull: context.unknownSeries === "null",
    maxSteps: limits?.maxSteps ?? DEFAULT_MAX_STEPS,
    maxListSize: limits?.maxListSize ?? DEFAULT_MAX_LIST,
    steps: 0,
    slots: new Array(fetches.length),
  };
  for (let i = 0; i < fetches.length; i++) rt.slots[i] = (fetches[i] as Fetch)(rt);
  return rt;
}

/**
 * What one reference hands to the calculation, as Bischeck's CacheEvaluator.parse substitutes
 * it: the values (a list for ranges, `[null]` for nothing found), or null when Bischeck would not
 * calculate at all (a null value without notFullListParse). For previews and for tests.
 */
export function cacheValues(ref: RefNode, context: EvalContext): readonly (number | null)[] | null {
  const rt = fetchAll(context, [compileFetch(ref)]);
  if (!rt.dropNulls && anyNull(rt.slots)) return null;
  const slot = rt.slots[0] as number | null | readonly (number | null)[];
  return typeof slot === "number" || slot === null ? [slot] : slot;
}
