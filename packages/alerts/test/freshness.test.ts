import { fireTimes, parseSchedule } from "@tidemark/schedule";
import { describe, expect, it } from "vitest";
import { AGENT_SILENT_AFTER_MS, agentHeartbeatItem, agentSilentSince, itemFreshness, staleAt } from "../src/index.ts";

const T = Date.parse("2026-03-02T10:00:07Z");
const every = (text: string, lastTs = T) => fireTimes(parseSchedule(text), { timeZone: "UTC", offsetMs: lastTs })!;
const cron = (text: string, timeZone = "UTC") => fireTimes(parseSchedule(text), { timeZone })!;

describe("freshness", () => {
  it("makes an item stale after n of its intervals without data", () => {
    expect(staleAt([every("5M")], T, 3)).toBe(T + 15 * 60_000);
    expect(staleAt([every("5M"), every("1M")], T, 3)).toBe(T + 3 * 60_000);
    // Cron: the third run after the last data (hourly at :00 → 11:00, 12:00, 13:00).
    expect(staleAt([cron("0 0 * * * ?")], T, 3)).toBe(Date.parse("2026-03-02T13:00:00Z"));
    // Mondays at noon in Stockholm: data last at 11:00 on Monday 2 March; runs due at noon that day, on the 9th and the 16th.
    expect(staleAt([cron("0 0 12 ? * 2", "Europe/Stockholm")], T, 3)).toBe(Date.parse("2026-03-16T11:00:00Z"));
    expect(staleAt([cron("0 0 12 1 1 ? 2026")], T, 1)).toBeNull();
  });

  it.each([
    ["data as expected", { now: T + 14 * 60_000 }, { kind: "fresh" }],
    ["no data for three intervals", { now: T + 15 * 60_000 }, { kind: "stale", since: T + 15 * 60_000 }],
    [
      "the agent calls in but sends nothing for the item",
      { now: T + 20 * 60_000, agentLastSeen: T + 19 * 60_000 },
      { kind: "stale", since: T + 15 * 60_000 },
    ],
    [
      "the agent stopped calling in before the next result was due",
      { now: T + 20 * 60_000, agentLastSeen: T + 60_000 },
      { kind: "agent-silent" },
    ],
    ["the agent never called in", { now: T + 20 * 60_000, agentLastSeen: null }, { kind: "agent-silent" }],
  ] as const)("%s", (_, input, expected) => {
    expect(itemFreshness({ schedules: [every("5M")], lastTs: T, staleAfterIntervals: 3, ...input })).toEqual(expected);
  });

  it("counts an agent as stopped once it has not called in for a while", () => {
    expect(agentSilentSince(T + AGENT_SILENT_AFTER_MS - 1, T)).toBeNull();
    expect(agentSilentSince(T + AGENT_SILENT_AFTER_MS, T)).toBe(T + AGENT_SILENT_AFTER_MS);
    expect(agentSilentSince(T, null)).toBeNull();
  });
});

describe("an agent's heartbeat", () => {
  it("is an item without threshold, its state the made-up results' exit code, stale after one missed call", () => {
    expect(agentHeartbeatItem("edge-01")).toEqual({
      seriesKey: "edge\\-01-agent-heartbeat",
      host: "edge-01",
      service: "agent",
      item: "heartbeat",
      policy: null,
      intervalMs: null,
      stateSource: "plugin",
      staleAfterIntervals: 1,
    });
  });
});
