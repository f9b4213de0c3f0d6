import { describe, expect, it } from "vitest";
import { sharedJsonParser } from "../src/shared-json.ts";

describe("sharedJsonParser", () => {
  it.each([
    { a: '{"x":[1,{"y":"z"}]}', b: '{"x":[1,{"y":"z"}]}', shared: true },
    { a: '{"x":[1,{"y":"z"}]}', b: '{"x":[1,{"y":"w"}]}', shared: false },
    // Texts, not values: jsonb's ::text writes equal values alike, other writers may not.
    { a: '{"x":1,"y":2}', b: '{"y":2,"x":1}', shared: false },
  ])("parses $a and $b into one value: $shared", ({ a, b, shared }) => {
    const parse = sharedJsonParser<unknown>();
    const first = parse(a);
    const second = parse(b);
    expect(first).toEqual(JSON.parse(a));
    expect(second).toEqual(JSON.parse(b));
    expect(first === second).toBe(shared);
  });

  it("gives null for SQL NULL", () => {
    expect(sharedJsonParser<unknown>()(null)).toBeNull();
  });

  it("freezes every level, so no holder can change it for the others", () => {
    const value = sharedJsonParser<{ x: [number, { y: string }] }>()('{"x":[1,{"y":"z"}]}')!;
    expect(() => {
      value.x[1].y = "changed";
    }).toThrow(TypeError);
    expect(() => {
      value.x.push(2 as never);
    }).toThrow(TypeError);
    expect(value).toEqual({ x: [1, { y: "z" }] });
  });

  it("does not share between parsers (a load's values live as long as its result)", () => {
    expect(sharedJsonParser<unknown>()("[1]")).not.toBe(sharedJsonParser<unknown>()("[1]"));
  });
});
