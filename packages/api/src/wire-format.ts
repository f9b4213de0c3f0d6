import superjson, { type SuperJSONResult } from "superjson";

/**
 * superjson's wire format, written fast for what procedures return. A response is serialised on
 * every call, and superjson's general walk (a path array copied per value, every object tracked
 * for referential equality, a transformer lookup per value) cost a 50-row list a tenth of its
 * server time. The values procedures return are plain objects and arrays of JSON primitives,
 * Dates and undefined: `serializeOutput` writes those in one pass, to exactly what
 * `superjson.serialize` writes (`{ json, meta: { values, v: 1 } }`, the same annotations; their
 * order may differ, as each applies to a path of its own), so the browser's superjson reads it unchanged. Anything else — a Map, a Set, a
 * BigInt, a class instance, NaN, ±Infinity or -0, a value reached twice, a root that is not an
 * object — is handed to superjson itself.
 */

/** Flat, as superjson minimises its tree: an escaped path → its one type annotation. */
type Annotations = Record<string, [string]>;

/** Thrown inside the fast walk when a value needs superjson's general one. */
const GENERAL = Symbol("needs superjson");

/** superjson's path escaping (pathstringifier.ts): backslashes and dots in keys. */
const escapeKey = (key: string) => (key.includes("\\") || key.includes(".") ? key.replace(/\\/g, "\\\\").replace(/\./g, "\\.") : key);

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The JSON form of `value` at `path` (an escaped prefix ending in "." or ""), recording annotations. */
function walk(value: unknown, path: string, annotations: Annotations, seen: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // superjson writes these as annotated strings ("NaN", "-0"…); JSON cannot carry them.
      if (!Number.isFinite(value) || Object.is(value, -0)) throw GENERAL;
      return value;
    case "undefined":
      annotations[path.slice(0, -1)] = ["undefined"];
      return null;
    case "object": {
      if (value === null) return null;
      // superjson annotates a value reached by two paths (referential equality): its walk does that.
      if (seen.has(value)) throw GENERAL;
      seen.add(value);
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw GENERAL;
        annotations[path.slice(0, -1)] = ["Date"];
        return value.toISOString();
      }
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw GENERAL;
          out[i] = walk(value[i], `${path}${i}.`, annotations, seen);
        }
        return out;
      }
      if (!isPlainObject(value)) throw GENERAL;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        // superjson refuses these (prototype pollution): its walk throws the same error.
        if (key === "__proto__" || key === "constructor" || key === "prototype") throw GENERAL;
        out[key] = walk((value as Record<string, unknown>)[key], `${path}${escapeKey(key)}.`, annotations, seen);
      }
      return out;
    }
    default:
      throw GENERAL;
  }
}

/**
 * Values handed unchanged to many callers (a shared dashboard answer goes to everyone of an
 * organisation watching the list within its second: `SharedReads`), with the wire form written
 * for the first. Keyed by identity, so an answer and its wire form go together; never a value
 * that is not declared so, since another procedure may return an object it later changes.
 */
const reusedOutputs = new WeakMap<object, SuperJSONResult | null>();

/**
 * Declares `value` (an object or array) read-only and returned as it is to several callers:
 * serializeOutput writes its wire form once. Its root is frozen; what it holds must not change
 * either. Under 50 users on the list, writing the same answer again was 8 % of the web server's
 * busy time (issue 22).
 */
export function reusedOutput<T>(value: T): T {
  if (typeof value === "object" && value !== null && !(value instanceof Date)) reusedOutputs.set(Object.freeze(value), null);
  return value;
}

export function serializeOutput(value: unknown): SuperJSONResult {
  // A bare Date or undefined is annotated at the root, in a form of its own: superjson writes it.
  if (typeof value !== "object" || value === null || value instanceof Date) return superjson.serialize(value);
  const written = reusedOutputs.get(value);
  if (written) return written;
  const result = writeOutput(value);
  if (written === null) reusedOutputs.set(value, result);
  return result;
}

function writeOutput(value: object): SuperJSONResult {
  const annotations: Annotations = {};
  let json: unknown;
  try {
    json = walk(value, "", annotations, new Set());
  } catch (error) {
    if (error === GENERAL) return superjson.serialize(value);
    throw error;
  }
  const result = { json } as SuperJSONResult;
  // superjson's tree type cannot name a flat record of paths, which is what it writes.
  for (const _ in annotations)
    return { ...result, meta: { values: annotations as unknown as NonNullable<SuperJSONResult["meta"]>["values"], v: 1 } };
  return result;
}

/** The API's tRPC transformer: superjson's format both ways, responses written by serializeOutput. */
export const wireFormat = { serialize: serializeOutput, deserialize: superjson.deserialize };
