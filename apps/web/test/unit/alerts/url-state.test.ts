import { describe, expect, it } from "vitest";
import { DEFAULT_VIEW, parseView, type TimelineView, timelineRequest, viewToParams } from "../../../src/components/alerts/url-state";

describe("the timeline's URL state", () => {
  it("round-trips a view through the query string", () => {
    const view: TimelineView = {
      window: { kind: "absolute", from: Date.UTC(2026, 0, 5, 10), to: Date.UTC(2026, 0, 5, 16) },
      severities: ["CRITICAL", "UNKNOWN"],
      status: "open",
      host: "web*",
      service: "http",
      acknowledged: false,
      flapping: true,
      alert: "0b7c1c2e-8a4f-4e43-9c55-5b1d3d0f7a10",
    };
    const params = viewToParams(view);
    expect(params.get("from")).toBe("2026-01-05T10:00:00.000Z");
    expect(parseView(params)).toEqual(view);
    expect(parseView(viewToParams(DEFAULT_VIEW))).toEqual(DEFAULT_VIEW);
  });

  it.each([
    ["", { kind: "relative", preset: "24h" }],
    ["range=7d", { kind: "relative", preset: "7d" }],
    ["range=1y", { kind: "relative", preset: "24h" }],
    ["from=1767607200000&to=1767610800000", { kind: "absolute", from: 1767607200000, to: 1767610800000 }],
    // A window shorter than a minute, reversed, or unparsable falls back to the relative range.
    ["from=1000&to=2000", { kind: "relative", preset: "24h" }],
    ["from=2026-01-05T12:00:00Z&to=2026-01-05T10:00:00Z", { kind: "relative", preset: "24h" }],
    ["from=yesterday&to=today&range=6h", { kind: "relative", preset: "6h" }],
  ])("?%s → %j", (query, window) => {
    expect(parseView(new URLSearchParams(query)).window).toEqual(window);
  });

  it("ignores unknown severities and states", () => {
    const view = parseView(new URLSearchParams("severity=CRITICAL,OK,bogus&status=maybe&ack=perhaps"));
    expect(view).toMatchObject({ severities: ["CRITICAL"], status: "any", acknowledged: null });
  });

  it("asks the server for the same timeline whoever builds the request, a live window ending at the given now", () => {
    const view = parseView(new URLSearchParams("range=1h&severity=WARNING&host=web&ack=no"));
    const request = timelineRequest(view, 10_000_000);
    expect(request).toEqual({
      from: new Date(6_400_000),
      to: new Date(10_000_000),
      severities: ["WARNING"],
      status: "any",
      host: "web",
      service: null,
      acknowledged: false,
      flapping: null,
    });
    // The server page and the browser build it apart; the query cache meets them by equal values.
    expect(JSON.stringify(timelineRequest(parseView(viewToParams(view)), 10_000_000))).toBe(JSON.stringify(request));
    expect(timelineRequest({ ...view, window: { kind: "absolute", from: 1, to: 70_001 } }, 10_000_000)).toMatchObject({
      from: new Date(1),
      to: new Date(70_001),
    });
  });
});
