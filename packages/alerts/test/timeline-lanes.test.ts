import { describe, expect, it } from "vitest";
import { nameFilterGlob, shownLanes, timelineLanes } from "../src/index.ts";

describe("nameFilterGlob", () => {
  it.each([
    { text: null, glob: null },
    { text: "", glob: null },
    { text: "web", glob: "*web*" },
    { text: "web0*", glob: "web0*" },
  ])("$text → $glob", ({ text, glob }) => {
    expect(nameFilterGlob(text)).toBe(glob);
  });
});

describe("timeline lanes", () => {
  const series = [
    { seriesId: 1, key: "web05-http-latency" },
    { seriesId: 2, key: "web06-https-errors" },
    { seriesId: 3, key: "db05-pg-lag" },
    { seriesId: 4, key: "odd" },
  ];
  const none = { host: null, service: null };

  it("keeps the series whose host and service pass the filters, text matching anywhere and globs whole names", () => {
    expect([...timelineLanes(series, none).keys()]).toEqual([1, 2, 3, 4]);
    expect([...timelineLanes(series, { host: "web0*", service: null }).keys()]).toEqual([1, 2]);
    expect([...timelineLanes(series, { host: "eb", service: "http" }).keys()]).toEqual([1, 2]);
    expect([...timelineLanes(series, { host: null, service: "https" }).keys()]).toEqual([2]);
    expect([...timelineLanes(series, { host: "db", service: null }).keys()]).toEqual([3]);
    expect(timelineLanes(series, none).get(4)).toEqual({ seriesId: 4, key: "odd", host: "odd", service: "", item: "" });
  });

  it("shows the lanes with an alert, by host, service and item", () => {
    const lanes = timelineLanes(series, none);
    expect(shownLanes(lanes, [{ seriesId: 2 }, { seriesId: 3 }, { seriesId: 2 }, { seriesId: 1 }]).map((l) => l.key)).toEqual([
      "db05-pg-lag",
      "web05-http-latency",
      "web06-https-errors",
    ]);
    expect(shownLanes(lanes, [])).toEqual([]);
  });
});
