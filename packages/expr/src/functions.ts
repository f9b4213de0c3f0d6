/**
 * The function library. Scalar functions never see null (the evaluator returns null before
 * calling them); list functions get every value, nulls included, and apply the drop-nulls rule.
 */

export type ScalarImpl = (args: readonly number[]) => number | null;
export type ListImpl = (values: readonly number[]) => number;

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

interface ScalarDef extends FunctionInfo {
  readonly kind: "scalar";
  readonly impl: ScalarImpl;
}
interface ListDef extends FunctionInfo {
  readonly kind: "list";
  readonly impl: ListImpl;
}
interface IfDef extends FunctionInfo {
  readonly kind: "if";
}
export type FunctionDef = ScalarDef | ListDef | IfDef;

function scalar(name: string, arity: number, signature: string, description: string, impl: ScalarImpl): ScalarDef {
  return { kind: "scalar", name, minArgs: arity, maxArgs: arity, acceptsLists: false, signature, description, impl };
}

function list(name: string, description: string, impl: ListImpl): ListDef {
  return { kind: "list", name, minArgs: 1, maxArgs: null, acceptsLists: true, signature: `${name}(x, …)`, description, impl };
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
function stdev(values: readonly number[]): number {
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

function max(values: readonly number[]): number {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) > m) m = values[i] as number;
  return m;
}

function min(values: readonly number[]): number {
  let m = Infinity;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) < m) m = values[i] as number;
  return m;
}

/** Half-way cases round up (towards +∞), as Java's Math.round that JEP used. */
function round(args: readonly number[]): number {
  const x = first(args);
  if (args.length < 2) return Math.round(x);
  const factor = 10 ** Math.trunc(second(args));
  return Math.round(x * factor) / factor;
}

const DEFINITIONS: readonly FunctionDef[] = [
  {
    ...scalar("round", 1, "round(x[, decimals])", "Rounds to the nearest integer (halves up), or to the given number of decimals.", round),
    maxArgs: 2,
  },
  scalar("ceil", 1, "ceil(x)", "Smallest integer not less than x.", (a) => Math.ceil(first(a))),
  scalar("floor", 1, "floor(x)", "Largest integer not greater than x.", (a) => Math.floor(first(a))),
  scalar("abs", 1, "abs(x)", "Absolute value.", (a) => Math.abs(first(a))),
  scalar("mod", 2, "mod(x, y)", "Remainder of x / y, with the sign of x.", (a) => first(a) % second(a)),
  scalar("sqrt", 1, "sqrt(x)", "Square root.", (a) => Math.sqrt(first(a))),
  scalar("ln", 1, "ln(x)", "Natural logarithm.", (a) => Math.log(first(a))),
  scalar("log", 1, "log(x)", "Base-10 logarithm.", (a) => Math.log10(first(a))),
  scalar("exp", 1, "exp(x)", "e raised to x.", (a) => Math.exp(first(a))),
  scalar("pow", 2, "pow(x, y)", "x raised to y.", (a) => first(a) ** second(a)),
  {
    kind: "if",
    name: "if",
    minArgs: 3,
    maxArgs: 3,
    acceptsLists: false,
    signature: "if(cond, then, else)",
    description: "then when cond is non-zero, else otherwise; null when cond is null. Only the chosen branch is evaluated.",
  },
  list("sum", "Sum of the values.", sum),
  list("avg", "Arithmetic mean of the values.", avg),
  list("max", "Largest value.", max),
  list("min", "Smallest value.", min),
  list("stdev", "Population standard deviation of the values.", stdev),
  list("median", "Median; the mean of the two middle values for an even count.", median),
  scalar("multNull", 2, "multNull(x, y)", "x · y; null when either is null.", (a) => first(a) * second(a)),
  scalar("divNull", 2, "divNull(x, y)", "x / y; null when either is null or y is 0.", (a) =>
    second(a) === 0 ? null : first(a) / second(a),
  ),
];

const BY_NAME: ReadonlyMap<string, FunctionDef> = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** Null when `count` arguments suit `fn`, otherwise what was expected. */
export function arityProblem(fn: FunctionInfo, count: number): string | null {
  if (count >= fn.minArgs && (fn.maxArgs === null || count <= fn.maxArgs)) return null;
  const arity =
    fn.maxArgs === null ? `at least ${fn.minArgs}` : fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
  return `${arity} argument(s) for ${fn.signature}`;
}

export function lookupFunction(name: string): FunctionDef | undefined {
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
