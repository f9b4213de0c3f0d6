import { offsetMs, type RefNode } from "./ast.ts";
import { UnknownSeriesError } from "./errors.ts";
import { hasMacros, type Macros, resolveSeries } from "./names.ts";
import { checkListSize, type Runtime, step } from "./runtime.ts";

export type SlotValue = number | null | readonly (number | null)[];
export type Fetch = (rt: Runtime) => SlotValue;

function clean(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Resolves the series key once when the name has no macros, once per macros object otherwise. */
export function keyOf(node: RefNode): (rt: Runtime) => string | null {
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

const SINGLE_NULL: readonly (number | null)[] = Object.freeze([null]);

/**
 * A list as Bischeck's CacheEvaluator hands it to JEP: with notFullListParse the nulls are
 * removed; a list with nothing left (or nothing found) is a single null.
 */
function asBischeckList(values: readonly (number | null)[], dropNulls: boolean): readonly (number | null)[] {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === null) nulls++;
  if (values.length === 0 || nulls === values.length) return SINGLE_NULL;
  if (nulls === 0 || !dropNulls) return values;
  return values.filter((v) => v !== null);
}

/**
 * How one reference reads the cache (Bischeck's CacheUtil.parseIndexString): an index or the
 * point nearest a time gives one value; `[i,j]`, `[i:j]`, `[i:END]` and time ranges give lists.
 * A time maps to the nearest stored index, null when it is newer than the newest point or older
 * than the oldest; a time range maps each end to its nearest index (an older end outside the
 * history maps to the oldest point; a `-0` newer end is index 0).
 */
export function compileFetch(node: RefNode): Fetch {
  const key = keyOf(node);
  const sel = node.selector;
  const span = node.span;
  switch (sel.kind) {
    case "index": {
      const indices = sel.indices;
      if (indices.length === 1) {
        const index = indices[0] as number;
        return (rt) => {
          step(rt, 1, span);
          const k = key(rt);
          return k === null ? null : clean(rt.data.byIndex(k, index));
        };
      }
      return (rt) => {
        checkListSize(rt, indices.length, span);
        step(rt, 1 + indices.length, span);
        const k = key(rt);
        return asBischeckList(
          indices.map((i) => (k === null ? null : clean(rt.data.byIndex(k, i)))),
          rt.dropNulls,
        );
      };
    }
    case "indexRange": {
      const { from, to } = sel;
      return (rt) => {
        // `[i:END]` asks for one more than allowed, so that too long a history is reported.
        const last = to === "END" ? from + rt.maxListSize : to;
        if (to !== "END") checkListSize(rt, last - from + 1, span);
        step(rt, 1, span);
        const k = key(rt);
        if (k === null) return SINGLE_NULL;
        const values = rt.data.byIndexRange(k, from, last);
        checkListSize(rt, values.length, span);
        step(rt, values.length, span);
        return asBischeckList(values.map(clean), rt.dropNulls);
      };
    }
    case "nearest": {
      const ms = offsetMs(sel.offset);
      return (rt) => {
        step(rt, 1, span);
        const k = key(rt);
        return k === null ? null : clean(rt.data.nearest(k, rt.now - ms));
      };
    }
    case "timeRange": {
      const fromMs = offsetMs(sel.from);
      const toMs = sel.to === "END" ? null : offsetMs(sel.to);
      return (rt) => {
        step(rt, 1, span);
        const k = key(rt);
        if (k === null) return SINGLE_NULL;
        const values = rt.data.timeRange(k, fromMs === 0 ? null : rt.now - fromMs, toMs === null ? null : rt.now - toMs, rt.maxListSize);
        checkListSize(rt, values.length, span);
        step(rt, values.length, span);
        return asBischeckList(values.map(clean), rt.dropNulls);
      };
    }
  }
}

/** Bischeck without notFullListParse: any null among the values read makes the expression null. */
export function anyNull(slots: readonly SlotValue[]): boolean {
  for (const slot of slots) {
    if (slot === null) return true;
    if (typeof slot !== "number" && slot.includes(null)) return true;
  }
  return false;
}
