import { describe, expect, it } from "vitest";
import { readMoment } from "../../../src/components/thresholds/preview-window";
import { readRange } from "../../../src/lib/time-range";

describe("the preview's URL", () => {
  it("reads the alert detail's link: a custom window and the moment to mark", () => {
    const params = new URLSearchParams({
      at: "2026-11-23T09:11:00.000Z",
      from: "2026-11-23T03:11:00.000Z",
      to: "2026-11-23T16:05:00.000Z",
    });
    expect(readRange(params, "7d")).toEqual({
      kind: "absolute",
      from: Date.parse("2026-11-23T03:11:00.000Z"),
      to: Date.parse("2026-11-23T16:05:00.000Z"),
    });
    expect(readMoment(params)).toEqual(new Date("2026-11-23T09:11:00.000Z"));
  });

  it.each(["", "at=", "at=soon"])("marks no moment for ?%s", (query) => {
    expect(readMoment(new URLSearchParams(query))).toBeNull();
  });
});
