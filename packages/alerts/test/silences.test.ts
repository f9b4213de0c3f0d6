import { describe, expect, it } from "vitest";
import { matchesGlob, silenceCovers, silenceMatchersSchema } from "../src/index.ts";

describe("glob matching", () => {
  it.each([
    ["web01", "web01", true],
    ["web01", "web02", false],
    ["web*", "web01", true],
    ["web*", "aweb01", false],
    ["*01", "web01", true],
    ["*", "", true],
    ["w*b*1", "web01", true],
    ["w*b*1", "web02", false],
    ["a*a", "a", false],
    ["*-*", "http-latency", true],
    ["WEB*", "web01", false],
    ["web.*", "web01", false],
  ])("%s ~ %s → %s", (glob, text, expected) => {
    expect(matchesGlob(glob, text)).toBe(expected);
  });
});

describe("silences", () => {
  const window = { startsAt: new Date("2026-01-05T10:00:00Z"), endsAt: new Date("2026-01-05T12:00:00Z") };
  const silence = { ...window, matchers: silenceMatchersSchema.parse({ host: "web*", item: "latency" }) };

  it.each([
    { key: "web01-http-latency", at: "2026-01-05T10:00:00Z", silenced: true },
    { key: "web01-http-latency", at: "2026-01-05T11:59:59Z", silenced: true },
    { key: "web01-http-latency", at: "2026-01-05T12:00:00Z", silenced: false },
    { key: "web01-http-latency", at: "2026-01-05T09:59:59Z", silenced: false },
    { key: "web01-http-errors", at: "2026-01-05T11:00:00Z", silenced: false },
    { key: "db01-http-latency", at: "2026-01-05T11:00:00Z", silenced: false },
    // Escaped dashes inside names are part of the name, not separators.
    { key: "web\\-01-http-latency", at: "2026-01-05T11:00:00Z", silenced: true },
  ])("$key at $at → $silenced", ({ key, at, silenced }) => {
    expect(silenceCovers(silence, key, new Date(at))).toBe(silenced);
  });

  it("defaults missing matchers to *, and refuses empty ones", () => {
    expect(silenceMatchersSchema.parse({})).toEqual({ host: "*", service: "*", item: "*" });
    expect(silenceMatchersSchema.safeParse({ host: "  " }).success).toBe(false);
  });
});
