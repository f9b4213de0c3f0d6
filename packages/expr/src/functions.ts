/**
 * The function library: JEP's standard functions that Bischeck's ExecuteJEP keeps, and Bischeck's
 * own (com.ingby.socbox.bischeck.jepext). The evaluator applies Bischeck's null rules around them
 * (see compile.ts): a scalar function never sees null; list functions say what a null does.
 */

export type ScalarImpl = (args: readonly number[]) => number | null;
/** `values` after the null rule; `leading` are the fixed scalar arguments before them (avgMadT's threshold). NaN means "no value". */
export type ListImpl = (values: readonly number[], leading: readonly number[]) => number;

export interface FunctionInfo {
  readonly name: string;
  /** Fewest arguments. */
  readonly minArgs: number;
  /** Most arguments; null means any number. */
  readonly maxArgs: number | null;
  /** True when ranges and index lists may be spread into the arguments. */
  readonly acceptsLists: boolean;
  readonly signature: string;
  readonly description: string;
}

/**
 * What a null among a list function's values does, as in Bischeck:
 * - `mode`: skipped under notFullListParse (`dropNulls`), otherwise the whole expression is null;
 * - `skip`: always skipped (avgNull, sumNull);
 * - `poison`: the whole expression is null (median sorts a Double[] holding nulls and fails).
 */
export type NullRule = "mode" | "skip" | "poison";

interface ScalarDef extends FunctionInfo {
  readonly kind: "scalar";
  readonly impl: ScalarImpl;
}
export interface ListDef extends FunctionInfo {
  readonly kind: "list";
  readonly nulls: NullRule;
  /** Scalar arguments before the values (avgMadT's threshold); never spread, never null. */
  readonly leading: number;
  readonly impl: ListImpl;
}
interface IfDef extends FunctionInfo {
  readonly kind: "if";
}
/** multNull and divNull: a null argument gives null instead of failing the expression. */
interface NullableDef extends FunctionInfo {
  readonly kind: "nullable";
  readonly op: "mult" | "div";
}
/** ols and olss: a least-squares fit over a series named by quoted strings. */
export interface RegressionDef extends FunctionInfo {
  readonly kind: "regression";
  readonly result: "forecast" | "slope";
}
export type FunctionDef = ScalarDef | ListDef | IfDef | NullableDef | RegressionDef;

/** Argument positions that take quoted strings (ols, olss). */
export type WithStringArgs = { readonly stringArgs?: readonly number[] };

function scalar(name: string, arity: number, signature: string, description: string, impl: ScalarImpl): ScalarDef {
  return { kind: "scalar", name, minArgs: arity, maxArgs: arity, acceptsLists: false, signature, description, impl };
}

/** Bischeck's list functions take any number of arguments; none at all fails the expression at run time (`sum()` is null). */
function list(name: string, description: string, impl: ListImpl, nulls: NullRule = "mode"): ListDef {
  return {
    kind: "list",
    name,
    minArgs: 0,
    maxArgs: null,
    acceptsLists: true,
    signature: `${name}(x, …)`,
    description,
    nulls,
    leading: 0,
    impl,
  };
}

function unary(name: string, description: string, f: (x: number) => number): ScalarDef {
  return scalar(name, 1, `${name}(x)`, description, (a) => f(first(a)));
}

const first = (a: readonly number[]): number => a[0] as number;
const second = (a: readonly number[]): number => a[1] as number;

function sum(values: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] as number;
  return total;
}

function avg(values: readonly number[]): number {
  return sum(values) / values.length;
}

/** Population standard deviation, as Bischeck's Stddev (divides by n). */
function stddev(values: readonly number[]): number {
  const mean = avg(values);
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    const d = (values[i] as number) - mean;
    squares += d * d;
  }
  return Math.sqrt(squares / values.length);
}

/** Even counts take the mean of the two middle values, as Bischeck's Median. */
function median(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Bischeck's Max starts from 0, so a list of negative values has the maximum 0 (kept: it is what imported thresholds computed). */
function max(values: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) >= m) m = values[i] as number;
  return m;
}

/** Bischeck's Min starts from Double.MAX_VALUE. */
function min(values: readonly number[]): number {
  let m = Number.MAX_VALUE;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) <= m) m = values[i] as number;
  return m;
}

/**
 * Bischeck's AverageMad: the mean of the values whose distance to the median is below
 * `threshold` times the median absolute deviation (outliers removed). No value left gives NaN (null).
 */
function averageMad(values: readonly number[], threshold: number): number {
  if (values.length === 0) return Number.NaN;
  const m = median(values);
  const deviations = values.map((v) => Math.abs(v - m));
  const mad = median(deviations);
  let total = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if ((deviations[i] as number) < mad * threshold) {
      total += values[i] as number;
      count++;
    }
  }
  return total / count;
}

/** Half-way cases round up (towards +∞), as Java's Math.round that JEP used. */
function round(args: readonly number[]): number {
  const x = first(args);
  if (args.length < 2) return Math.round(x);
  const factor = 10 ** Math.trunc(second(args));
  return Math.round(x * factor) / factor;
}

const DEFINITIONS: readonly (FunctionDef & WithStringArgs)[] = [
  {
    ...scalar("round", 1, "round(x[, decimals])", "Rounds to the nearest integer (halves up), or to the given number of decimals.", round),
    maxArgs: 2,
  },
  unary("ceil", "Smallest integer not less than x.", Math.ceil),
  unary("floor", "Largest integer not greater than x.", Math.floor),
  unary("abs", "Absolute value.", Math.abs),
  scalar("mod", 2, "mod(x, y)", "Remainder of x / y, with the sign of x.", (a) => first(a) % second(a)),
  unary("sqrt", "Square root.", Math.sqrt),
  unary("ln", "Natural logarithm.", Math.log),
  unary("log", "Base-10 logarithm.", Math.log10),
  unary("exp", "e raised to x.", Math.exp),
  scalar("pow", 2, "pow(x, y)", "x raised to y.", (a) => first(a) ** second(a)),
  unary("sin", "Sine (radians).", Math.sin),
  unary("cos", "Cosine (radians).", Math.cos),
  unary("tan", "Tangent (radians).", Math.tan),
  unary("asin", "Arc sine.", Math.asin),
  unary("acos", "Arc cosine.", Math.acos),
  unary("atan", "Arc tangent.", Math.atan),
  scalar("atan2", 2, "atan2(y, x)", "Angle of the point (x, y).", (a) => Math.atan2(first(a), second(a))),
  unary("sinh", "Hyperbolic sine.", Math.sinh),
  unary("cosh", "Hyperbolic cosine.", Math.cosh),
  unary("tanh", "Hyperbolic tangent.", Math.tanh),
  unary("asinh", "Inverse hyperbolic sine.", Math.asinh),
  unary("acosh", "Inverse hyperbolic cosine.", Math.acosh),
  unary("atanh", "Inverse hyperbolic tangent.", Math.atanh),
  {
    kind: "if",
    name: "if",
    minArgs: 3,
    maxArgs: 4,
    acceptsLists: false,
    signature: "if(cond, then, else[, zero])",
    description:
      "JEP's if: then when cond > 0, else otherwise (with four arguments: else when cond < 0, zero when cond is 0). Only the chosen branch is evaluated.",
  },
  list("sum", "Sum of the values.", sum),
  list("sumNull", "Sum of the values, nulls skipped; null when all are null.", sum, "skip"),
  list("avg", "Arithmetic mean of the values.", avg),
  list("avgNull", "Arithmetic mean of the values, nulls skipped; null when all are null.", avg, "skip"),
  list("max", "Largest value (Bischeck's starts from 0: never below 0).", max),
  list("min", "Smallest value.", min),
  list("stddev", "Population standard deviation of the values (Bischeck's Stddev).", stddev),
  list("stdev", "Population standard deviation (the name Bischeck's guide uses; stddev in its code).", stddev),
  list(
    "median",
    "Median; the mean of the two middle values for an even count. A null makes the expression null, as in Bischeck.",
    median,
    "poison",
  ),
  list("avgMad", "Mean without outliers: values within 3 median absolute deviations of the median.", (v) => averageMad(v, 3)),
  {
    ...list("avgMadT", "avgMad with the threshold (in median absolute deviations) as the first argument.", (v, leading) =>
      averageMad(v, leading[0] as number),
    ),
    signature: "avgMadT(threshold, x, …)",
    minArgs: 1,
    leading: 1,
  },
  {
    kind: "nullable",
    op: "mult",
    name: "multNull",
    minArgs: 1,
    maxArgs: null,
    acceptsLists: false,
    signature: "multNull(x, y, …)",
    description: "The product; null when an argument is null (a list function then skips it under notFullListParse).",
  },
  {
    kind: "nullable",
    op: "div",
    name: "divNull",
    minArgs: 2,
    maxArgs: 2,
    acceptsLists: false,
    signature: "divNull(x, y)",
    description: "x / y; null when either is null or y is 0.",
  },
  {
    kind: "regression",
    result: "forecast",
    name: "ols",
    minArgs: 7,
    maxArgs: 7,
    acceptsLists: false,
    stringArgs: [0, 1, 2, 3, 4, 5, 6],
    signature: 'ols("host", "service", "item", "AVG|MAX|MIN", "H|D|W", "forecast", "-30D|END")',
    description: "Least-squares forecast: the fitted value `forecast` buckets after the newest, over buckets of an hour, day or week.",
  },
  {
    kind: "regression",
    result: "slope",
    name: "olss",
    minArgs: 6,
    maxArgs: 6,
    acceptsLists: false,
    stringArgs: [0, 1, 2, 3, 4, 5],
    signature: 'olss("host", "service", "item", "AVG|MAX|MIN", "H|D|W", "-30D|END")',
    description: "Least-squares slope per bucket (hour, day or week) of the series.",
  },
];

const BY_NAME: ReadonlyMap<string, FunctionDef & WithStringArgs> = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** For error messages: the functions that take ranges and lists. */
export const LIST_FUNCTIONS = DEFINITIONS.filter((d) => d.acceptsLists)
  .map((d) => d.name)
  .join(", ");

/** Null when `count` arguments suit `fn`, otherwise what was expected. */
export function arityProblem(fn: FunctionInfo, count: number): string | null {
  if (count >= fn.minArgs && (fn.maxArgs === null || count <= fn.maxArgs)) return null;
  const arity =
    fn.maxArgs === null ? `at least ${fn.minArgs}` : fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
  return `${arity} argument(s) for ${fn.signature}`;
}

export function lookupFunction(name: string): (FunctionDef & WithStringArgs) | undefined {
  return BY_NAME.get(name);
}

/** Names, arities and descriptions for autocomplete and documentation. */
export const FUNCTIONS: readonly FunctionInfo[] = DEFINITIONS.map(({ name, minArgs, maxArgs, acceptsLists, signature, description }) => ({
  name,
  minArgs,
  maxArgs,
  acceptsLists,
  signature,
  description,
}));
