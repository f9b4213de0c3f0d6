import { type Expr, offsetMs, type RefNode } from "./ast.ts";
import type { Limits } from "./limits.ts";
import { type Macros, resolveSeries } from "./names.ts";
import { parse } from "./parser.ts";

interface SeriesIdentity {
  /** Key for SeriesData, as built by seriesKey(host, service, item). */
  readonly series: string;
  readonly host: string;
  readonly service: string;
  readonly item: string;
}

/** One thing an expression reads from history; time offsets count back from the evaluation's `now`. */
export type Reference = SeriesIdentity &
  (
    | { readonly kind: "index"; readonly indices: readonly number[] }
    /** `to` END: down to the oldest stored point. */
    | { readonly kind: "indexRange"; readonly from: number; readonly to: number | "END" }
    | { readonly kind: "nearest"; readonly offsetMs: number }
    | { readonly kind: "timeRange"; readonly fromOffsetMs: number; readonly toOffsetMs: number | "END" }
  );

export interface ReferencesOptions {
  /** Needed when names contain `$$HOSTNAME$$`-style macros. */
  readonly macros?: Macros;
  readonly limits?: Partial<Limits>;
}

function collect(expr: Expr, out: RefNode[]): void {
  switch (expr.type) {
    case "ref":
      out.push(expr);
      return;
    case "call": {
      // ols("host", "service", "item", …) reads the whole history of the series it names.
      const [host, service, item] = expr.args;
      if (
        (expr.name === "ols" || expr.name === "olss") &&
        host?.type === "string" &&
        service?.type === "string" &&
        item?.type === "string"
      ) {
        const text = (s: { value: string }) => [{ kind: "text" as const, text: s.value }];
        out.push({
          type: "ref",
          name: { host: text(host), service: text(service), item: text(item) },
          selector: { kind: "indexRange", from: 0, to: "END" },
          span: expr.span,
        });
      }
      for (const arg of expr.args) collect(arg, out);
      return;
    }
    case "unary":
      collect(expr.operand, out);
      return;
    case "binary":
      collect(expr.left, out);
      collect(expr.right, out);
      return;
    default:
      return;
  }
}

/**
 * What an expression needs from history, deduplicated: single indices of one series merge into
 * one sorted `index` entry, identical ranges and offsets appear once. Callers gather these over
 * many expressions and fetch them in one round trip.
 */
export function references(sourceOrAst: string | Expr, options: ReferencesOptions = {}): Reference[] {
  const ast = typeof sourceOrAst === "string" ? parse(sourceOrAst, { limits: options.limits }) : sourceOrAst;
  const nodes: RefNode[] = [];
  collect(ast, nodes);
  const indices = new Map<string, { id: SeriesIdentity; set: Set<number> }>();
  const others = new Map<string, Reference>();
  const order: string[] = [];
  for (const node of nodes) {
    const { key, host, service, item } = resolveSeries(node.name, options.macros, node.span);
    const id: SeriesIdentity = { series: key, host, service, item };
    const sel = node.selector;
    if (sel.kind === "index") {
      const slot = `index\u0000${key}`;
      let entry = indices.get(key);
      if (entry === undefined) {
        entry = { id, set: new Set() };
        indices.set(key, entry);
        order.push(slot);
      }
      for (const i of sel.indices) entry.set.add(i);
      continue;
    }
    const ref: Reference =
      sel.kind === "indexRange"
        ? { ...id, kind: "indexRange", from: sel.from, to: sel.to }
        : sel.kind === "nearest"
          ? { ...id, kind: "nearest", offsetMs: offsetMs(sel.offset) }
          : { ...id, kind: "timeRange", fromOffsetMs: offsetMs(sel.from), toOffsetMs: sel.to === "END" ? "END" : offsetMs(sel.to) };
    const slot = JSON.stringify(ref);
    if (!others.has(slot)) {
      others.set(slot, ref);
      order.push(slot);
    }
  }
  return order.map((slot) => {
    if (!slot.startsWith("index\u0000")) return others.get(slot) as Reference;
    const entry = indices.get(slot.slice(6)) as { id: SeriesIdentity; set: Set<number> };
    return { ...entry.id, kind: "index", indices: [...entry.set].sort((a, b) => a - b) };
  });
}
