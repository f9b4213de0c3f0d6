import type { Span } from "./ast.ts";
import { ExprEvalError, LimitError } from "./errors.ts";
import type { Macros } from "./names.ts";
import type { SeriesData } from "./series-data.ts";

/** Per-evaluation state handed down the closure tree. */
export interface Runtime {
  readonly data: SeriesData;
  readonly now: number;
  readonly macros: Macros | undefined;
  readonly dropNulls: boolean;
  readonly unknownNull: boolean;
  readonly maxSteps: number;
  readonly maxListSize: number;
  steps: number;
  /** What each reference read, fetched before evaluation as Bischeck's CacheEvaluator does. */
  slots: (number | null | readonly (number | null)[])[];
}

/**
 * Bischeck evaluates the expression text with JEP after putting the values in: anything JEP
 * cannot compute (arithmetic on null, a null where a number must be, NaN) makes the whole
 * expression null. Thrown, caught once at the top: no closure has to pass it up.
 */
export class Poison {
  private constructor() {}
  static readonly instance = new Poison();
}

export function poison(): never {
  throw Poison.instance;
}

export function step(rt: Runtime, n: number, span: Span): void {
  rt.steps += n;
  if (rt.steps > rt.maxSteps) throw new LimitError("maxSteps", `more than ${rt.maxSteps} evaluation steps`, span);
}

export function checkListSize(rt: Runtime, size: number, span: Span): void {
  if (size > rt.maxListSize) throw new LimitError("maxListSize", `${size} values, at most ${rt.maxListSize} allowed`, span);
}

/** NaN is JEP's "no value" (null); an infinite result is an error (Tidemark stores and compares finite numbers only). */
export function finite(v: number, span: Span, what: string): number {
  if (Number.isFinite(v)) return v;
  if (Number.isNaN(v)) poison();
  throw new ExprEvalError(`${what} is not a finite number`, span);
}
