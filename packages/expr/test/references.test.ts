import { describe, expect, it } from "vitest";
import { ExprEvalError, parse, references } from "../src/index.ts";

describe("references", () => {
  it("lists every form once, merging single indices of a series", () => {
    const refs = references(
      "avg(h-s-i[0], h-s-i[3], h-s-i[1,3], h-s-i[0:9], h-s-i[0:9], h-s-i[-30M], h-s-i[-1800S], h-s-i[-30M:-2H], x\\-y-s-i[-24H:END]) + h-s-i[0]",
    );
    expect(refs).toEqual([
      { series: "h-s-i", host: "h", service: "s", item: "i", kind: "index", indices: [0, 1, 3] },
      { series: "h-s-i", host: "h", service: "s", item: "i", kind: "indexRange", from: 0, to: 9 },
      { series: "h-s-i", host: "h", service: "s", item: "i", kind: "nearest", offsetMs: 1_800_000 },
      { series: "h-s-i", host: "h", service: "s", item: "i", kind: "timeRange", fromOffsetMs: 1_800_000, toOffsetMs: 7_200_000 },
      { series: "x\\-y-s-i", host: "x-y", service: "s", item: "i", kind: "timeRange", fromOffsetMs: 86_400_000, toOffsetMs: "END" },
    ]);
  });

  it("expands macros, and needs them when the expression uses them", () => {
    const ast = parse("$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[0] - a-b-c[1]");
    expect(references(ast, { macros: { host: "web", service: "http", item: "p99" } }).map((r) => r.series)).toEqual([
      "web-http-p99",
      "a-b-c",
    ]);
    expect(() => references(ast)).toThrow(ExprEvalError);
  });

  it("is empty for constant expressions", () => {
    expect(references("1 + 2")).toEqual([]);
  });
});
