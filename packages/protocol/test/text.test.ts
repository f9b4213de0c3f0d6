import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findUnstorableText, unstorableTextReason } from "../src/text.ts";

describe("text PostgreSQL can store", () => {
  it.each([
    ["plain", null],
    ["emoji 🌊 (a surrogate pair)", null],
    ["a\u0000b", /NUL/],
    ["\ud800", /surrogate/],
    ["x\udc00", /surrogate/],
    ["\udc00\ud800", /surrogate/],
  ])("%j", (text, reason) => {
    const found = unstorableTextReason(text);
    if (reason === null) expect(found).toBeNull();
    else expect(found).toMatch(reason);
  });

  it("accepts every well-formed string without NUL", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => unstorableTextReason(s.replaceAll("\u0000", "")) === null));
  });

  it("finds the first bad string or key with its path", () => {
    expect(findUnstorableText({ a: [1, "ok", { b: "x\u0000" }] })).toEqual({ path: ["a", 2, "b"], reason: expect.stringMatching(/NUL/) });
    expect(findUnstorableText({ a: { "k\ud800": 1 } })).toEqual({ path: ["a", "k\ud800"], reason: expect.stringMatching(/^its name/) });
    expect(findUnstorableText({ a: [null, 1, true, new Date(0)] })).toBeNull();
  });

  it("walks 50 000 levels of nesting without overflowing the stack", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(50_000);
  });
});
