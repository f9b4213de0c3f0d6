import type { Expr } from "./ast.ts";
import { type CompiledExpr, compile, type EvalContext } from "./compile.ts";
import type { Limits } from "./limits.ts";
import { parse } from "./parser.ts";

const SOURCE_CACHE_SIZE = 1024;

/** Compiled trees by source text, least recently used first (Map keeps insertion order). */
const bySource = new Map<string, CompiledExpr>();
const byAst = new WeakMap<Expr, CompiledExpr>();

function parseLimitsAreDefault(limits: Partial<Limits> | undefined): boolean {
  return limits === undefined || (limits.maxSourceLength === undefined && limits.maxDepth === undefined);
}

function compiledFromSource(source: string, limits: Partial<Limits> | undefined): CompiledExpr {
  // A tree parsed under custom parse limits must not be served to callers with the defaults.
  if (!parseLimitsAreDefault(limits)) return compile(parse(source, { limits }));
  const hit = bySource.get(source);
  if (hit !== undefined) {
    bySource.delete(source);
    bySource.set(source, hit);
    return hit;
  }
  const compiled = compile(parse(source));
  bySource.set(source, compiled);
  if (bySource.size > SOURCE_CACHE_SIZE) bySource.delete(bySource.keys().next().value as string);
  return compiled;
}

/** Compiles once per AST object; a pre-parsed AST is the fast path. */
export function compiled(sourceOrAst: string | Expr, limits?: Partial<Limits>): CompiledExpr {
  if (typeof sourceOrAst === "string") return compiledFromSource(sourceOrAst, limits);
  let hit = byAst.get(sourceOrAst);
  if (hit === undefined) {
    hit = compile(sourceOrAst);
    byAst.set(sourceOrAst, hit);
  }
  return hit;
}

/**
 * Evaluates an expression to a number or null (no data). Throws only ExprError subclasses:
 * syntax, unknown series, bad range, limit and evaluation errors.
 */
export function evaluate(sourceOrAst: string | Expr, context: EvalContext): number | null {
  return compiled(sourceOrAst, context.limits).run(context);
}
