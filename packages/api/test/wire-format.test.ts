import fc from "fast-check";
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { reusedOutput, serializeOutput } from "../src/wire-format.ts";

/**
 * What superjson writes, or the error it throws: serializeOutput must do the same. As parsed JSON,
 * compared with toEqual: annotations may come in another order (each applies to its own path).
 */
function outcome(serialize: (v: unknown) => unknown, value: unknown) {
  try {
    return { wrote: JSON.parse(JSON.stringify(serialize(value))) as unknown };
  } catch (error) {
    return { threw: String(error) };
  }
}

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a.b", "a\\b", "x\\.y", ".", "", "0", "__proto__", "constructor"));
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date(),
  fc.bigInt(),
  fc.constant(new Map([["k", 1]])),
  fc.constant(new Set([1])),
);
const value = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("tree"), { maxLength: 4 }),
  object: fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
})).tree;

describe("serializeOutput", () => {
  it("writes what superjson.serialize writes, for any value", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(serializeOutput, v)).toEqual(outcome(superjson.serialize, v));
      }),
      { numRuns: 2000 },
    );
  });

  const shared = new Date(0);
  const sharedRow = { id: 1 };
  it.each([
    ["a list page", { rows: [{ id: "a", lastTs: new Date(1), value: 1.5, state: null }], next: null }],
    ["undefined in an array and an object", [undefined, { a: undefined }]],
    ["a Date reached twice", { a: shared, b: shared }],
    ["an object reached twice", [sharedRow, sharedRow]],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    ["a sparse array", [1, , 3]],
    ["NaN and Infinity", { a: Number.NaN, b: Number.POSITIVE_INFINITY }],
    // Found by the property above (seed -643470278): JSON writes -0 as 0, superjson annotates it.
    ["minus zero", { a: [-0], b: 0 }],
    ["an invalid Date", { at: new Date(Number.NaN) }],
    ["a bare Date", new Date(5)],
    ["undefined", undefined],
    ["a class instance", { at: new URL("http://tidemark.test/") }],
    ["a key with dots and backslashes", { "a.b\\c": { d: new Date(2) } }],
  ])("%s: as superjson writes it, and reads back", (_name, v) => {
    expect(outcome(serializeOutput, v)).toEqual(outcome(superjson.serialize, v));
    expect(superjson.deserialize(serializeOutput(v))).toEqual(v);
  });
});

describe("reusedOutput", () => {
  it("is written once for all its callers, as superjson writes it", () => {
    const answer = reusedOutput({ rows: [{ id: "a", lastTs: new Date(1), value: undefined }], next: null });
    const first = serializeOutput(answer);
    expect(serializeOutput(answer)).toBe(first);
    expect(outcome(() => first, null)).toEqual(outcome(superjson.serialize, answer));
    expect(Object.isFrozen(answer)).toBe(true);
  });

  it("leaves every other value written afresh: a change between two calls shows", () => {
    const page: { rows: number[] } = { rows: [1] };
    const before = serializeOutput(page);
    page.rows.push(2);
    expect(serializeOutput(page)).not.toBe(before);
    expect(serializeOutput(page).json).toEqual({ rows: [1, 2] });
  });
});
