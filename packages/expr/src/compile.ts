import { type BinaryOp, type CallNode, type Expr, isListSelector, offsetMs, type RefNode, type Span } from "./ast.ts";
import { ExprEvalError, LimitError, UnknownSeriesError } from "./errors.ts";
import { arityProblem, type FunctionDef, lookupFunction } from "./functions.ts";
import { DEFAULT_LIMITS, type Limits, resolveLimits } from "./limits.ts";
import { hasMacros, type Macros, resolveSeries } from "./names.ts";
import type { SeriesData } from "./series-data.ts";

export interface EvalContext {
  /** Epoch milliseconds that time offsets such as `-30M` count back from. */
  readonly now: number;
  readonly data: SeriesData;
  readonly macros?: Macros;
  /** Bischeck's notFullListParse: list functions skip nulls instead of returning null. */
  readonly dropNulls?: boolean;
  /** "error" (default) throws UnknownSeriesError for a series `data` does not have; "null" reads it as no data. */
  readonly unknownSeries?: "error" | "null";
  readonly limits?: Partial<Limits>;
}

/** Per-evaluation state handed down the closure tree. */
interface Runtime {
  readonly data: SeriesData;
  readonly now: number;
  readonly macros: Macros | undefined;
  readonly dropNulls: boolean;
  readonly unknownNull: boolean;
  readonly maxSteps: number;
  readonly maxListSize: number;
  steps: number;
}

const { maxSteps: DEFAULT_MAX_STEPS, maxListSize: DEFAULT_MAX_LIST } = DEFAULT_LIMITS;

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

function step(rt: Runtime, n: number, span: Span): void {
  rt.steps += n;
  if (rt.steps > rt.maxSteps) throw new LimitError("maxSteps", `more than ${rt.maxSteps} evaluation steps`, span);
}

function checkListSize(rt: Runtime, size: number, span: Span): void {
  if (size > rt.maxListSize) throw new LimitError("maxListSize", `${size} values, at most ${rt.maxListSize} allowed`, span);
}

function clean(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function finite(v: number, span: Span, what: string): number {
  if (Number.isFinite(v)) return v;
  throw new ExprEvalError(`${what} is not a finite number`, span);
}

/** Resolves the series key once when the name has no macros, once per macros object otherwise. */
function keyOf(node: RefNode): (rt: Runtime) => string | null {
  const check = (rt: Runtime, key: string): string | null => {
    if (rt.data.has(key)) return key;
    if (rt.unknownNull) return null;
    throw new UnknownSeriesError(key, node.span);
  };
  if (hasMacros(node.name)) {
    // A worker passes the same macros object for an item every time: its key is resolved once.
    const resolved = new WeakMap<Macros, string>();
    return (rt) => {
      const macros = rt.macros;
      let key = macros === undefined ? undefined : resolved.get(macros);
      if (key === undefined) {
        key = resolveSeries(node.name, macros, node.span).key;
        if (macros !== undefined) resolved.set(macros, key);
      }
      return check(rt, key);
    };
  }
  const key = resolveSeries(node.name, undefined, node.span).key;
  return (rt) => check(rt, key);
}

function compileScalarRef(node: RefNode): Scalar {
  const key = keyOf(node);
  const sel = node.selector;
  if (sel.kind === "index" && sel.indices.length === 1) {
    const index = sel.indices[0] as number;
    return (rt) => {
      step(rt, 1, node.span);
      const k = key(rt);
      return k === null ? null : clean(rt.data.byIndex(k, index));
    };
  }
  if (sel.kind === "nearest") {
    const ms = offsetMs(sel.offset);
    return (rt) => {
      step(rt, 1, node.span);
      const k = key(rt);
      return k === null ? null : clean(rt.data.nearest(k, rt.now - ms));
    };
  }
  throw new ExprEvalError("a range or list reference where a single value is expected", node.span);
}

function compileListRef(node: RefNode): Values {
  const key = keyOf(node);
  const sel = node.selector;
  switch (sel.kind) {
    case "index": {
      const indices = sel.indices;
      return (rt) => {
        checkListSize(rt, indices.length, node.span);
        step(rt, 1 + indices.length, node.span);
        const k = key(rt);
        return indices.map((i) => (k === null ? null : rt.data.byIndex(k, i)));
      };
    }
    case "indexRange": {
      const { from, to } = sel;
      const size = to - from + 1;
      return (rt) => {
        checkListSize(rt, size, node.span);
        step(rt, 1 + size, node.span);
        const k = key(rt);
        return k === null ? new Array<null>(size).fill(null) : rt.data.byIndexRange(k, from, to);
      };
    }
    case "nearest": {
      const scalar = compileScalarRef(node);
      return (rt) => [scalar(rt)];
    }
    case "timeRange": {
      const fromMs = offsetMs(sel.from);
      const toMs = sel.to === "END" ? null : offsetMs(sel.to);
      return (rt) => {
        step(rt, 1, node.span);
        const k = key(rt);
        if (k === null) return [];
        const values = rt.data.timeRange(k, rt.now - fromMs, toMs === null ? null : rt.now - toMs, rt.maxListSize);
        checkListSize(rt, values.length, node.span);
        step(rt, values.length, node.span);
        return values;
      };
    }
  }
}

const ARITHMETIC: Partial<Record<BinaryOp, (a: number, b: number) => number>> = {
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
};

function compileBinary(op: BinaryOp, left: Scalar, right: Scalar, span: Span): Scalar {
  if (op === "&&") {
    return (rt) => {
      step(rt, 1, span);
      const a = left(rt);
      if (a === null || a === 0) return a;
      const b = right(rt);
      return b === null ? null : b !== 0 ? 1 : 0;
    };
  }
  if (op === "||") {
    return (rt) => {
      step(rt, 1, span);
      const a = left(rt);
      if (a === null) return null;
      if (a !== 0) return 1;
      const b = right(rt);
      return b === null ? null : b !== 0 ? 1 : 0;
    };
  }
  const f = ARITHMETIC[op] as (a: number, b: number) => number;
  const what = `the result of '${op}'`;
  const divides = op === "/" || op === "%";
  return (rt) => {
    step(rt, 1, span);
    const a = left(rt);
    const b = right(rt);
    if (a === null || b === null) return null;
    if (divides && b === 0) throw new ExprEvalError("division by zero (divNull gives null instead)", span);
    return finite(f(a, b), span, what);
  };
}

/** All arguments of a list function as one list; ranges and index lists are spread in place. */
function compileArguments(args: readonly Expr[], span: Span): Values {
  const [only] = args;
  if (args.length === 1 && only !== undefined && only.type === "ref" && isListSelector(only.selector)) return compileListRef(only);
  const parts = args.map((arg): { list: Values } | { scalar: Scalar } =>
    arg.type === "ref" && isListSelector(arg.selector) ? { list: compileListRef(arg) } : { scalar: compileScalar(arg) },
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

/** Nulls make the result null, unless dropNulls is set: then they are skipped (all null → null). */
function withoutNulls(values: readonly (number | null)[], dropNulls: boolean): readonly number[] | null {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) nulls++;
  if (nulls === 0) return values.length === 0 ? null : (values as readonly number[]);
  if (!dropNulls || nulls === values.length) return null;
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "number" && Number.isFinite(v)) kept.push(v);
  }
  return kept;
}

function compileCall(node: CallNode): Scalar {
  const fn: FunctionDef | undefined = lookupFunction(node.name);
  if (fn === undefined) throw new ExprEvalError(`unknown function '${node.name}'`, node.span);
  const problem = arityProblem(fn, node.args.length);
  if (problem !== null) throw new ExprEvalError(`expected ${problem}`, node.span);
  const span = node.span;
  const what = `the result of ${node.name}(…)`;
  switch (fn.kind) {
    case "if": {
      const [cond, then, otherwise] = node.args.map(compileScalar) as [Scalar, Scalar, Scalar];
      return (rt) => {
        step(rt, 1, span);
        const c = cond(rt);
        return c === null ? null : c !== 0 ? then(rt) : otherwise(rt);
      };
    }
    case "list": {
      const values = compileArguments(node.args, span);
      const impl = fn.impl;
      return (rt) => {
        step(rt, 1, span);
        const numbers = withoutNulls(values(rt), rt.dropNulls);
        return numbers === null ? null : finite(impl(numbers), span, what);
      };
    }
    case "scalar": {
      const args = node.args.map(compileScalar);
      const impl = fn.impl;
      return (rt) => {
        step(rt, 1, span);
        const numbers: number[] = new Array(args.length);
        let anyNull = false;
        for (let i = 0; i < args.length; i++) {
          const v = (args[i] as Scalar)(rt);
          if (v === null) anyNull = true;
          else numbers[i] = v;
        }
        if (anyNull) return null;
        const result = impl(numbers);
        return result === null ? null : finite(result, span, what);
      };
    }
  }
}

function compileScalar(node: Expr): Scalar {
  switch (node.type) {
    case "number": {
      const value = node.value;
      return () => value;
    }
    case "null":
      return () => null;
    case "ref":
      return compileScalarRef(node);
    case "call":
      return compileCall(node);
    case "unary": {
      const operand = compileScalar(node.operand);
      const span = node.span;
      if (node.op === "-") {
        return (rt) => {
          step(rt, 1, span);
          const v = operand(rt);
          return v === null ? null : -v;
        };
      }
      return (rt) => {
        step(rt, 1, span);
        const v = operand(rt);
        return v === null ? null : v === 0 ? 1 : 0;
      };
    }
    case "binary":
      return compileBinary(node.op, compileScalar(node.left), compileScalar(node.right), node.span);
  }
}

/**
 * Turns an AST into a closure tree once, so that repeated evaluation does no tree walking,
 * no key building and no function lookup.
 */
export function compile(ast: Expr): CompiledExpr {
  const root = compileScalar(ast);
  return {
    ast,
    readsTime: readsTime(ast),
    run(context: EvalContext): number | null {
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
      };
      return root(rt);
    },
  };
}
