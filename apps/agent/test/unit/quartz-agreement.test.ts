import type { AgentCheck } from "@tidemark/protocol";
import { DST_EDGE_CASES, QUARTZ_CASES, type QuartzCase } from "@tidemark/schedule/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Scheduler } from "../../src/scheduler.ts";

/**
 * The agent's scheduler, on a fake clock, runs each check of the shared Quartz table at exactly
 * the table's fire times (the worker is held to the same table in apps/worker). A run starts
 * within CRON_JITTER_MS (under a second) of its fire time, so runs are compared by their second.
 */

afterEach(() => {
  vi.useRealTimers();
});

async function agentRuns(c: QuartzCase): Promise<string[]> {
  const from = Date.parse(c.from);
  const to = Date.parse(c.to);
  vi.useFakeTimers({ now: from, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  const runs: number[] = [];
  const scheduler = new Scheduler(
    4,
    { results: () => undefined, overlap: () => undefined },
    () => async (check) => {
      runs.push(Date.now());
      return check.items.map((i) => ({ key: i.key, ts: Date.now(), value: 1 }));
    },
    { maxTimerMs: 20 * 86_400_000 },
  );
  const check: AgentCheck = {
    id: "h-s",
    host: "h",
    service: "s",
    url: "shell://localhost",
    schedules: [c.expression],
    timeoutMs: 1000,
    items: [{ name: "i", key: "h-s-i", exec: "check_dummy 0" }],
  };
  scheduler.apply([check], c.timeZone);
  while (Date.now() < to && vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
  scheduler.stop();
  return runs.filter((t) => t < to).map((t) => new Date(Math.floor(t / 1000) * 1000).toISOString());
}

describe("the agent runs cron checks at Quartz's fire times, in the organisation's time zone", () => {
  it.each([...QUARTZ_CASES, ...DST_EDGE_CASES].map((c) => [`${c.expression} (${c.timeZone}): ${c.meaning}`, c] as const))(
    "%s",
    async (_, c) => {
      expect(await agentRuns(c)).toEqual(c.fires.map((f) => new Date(f).toISOString()));
    },
  );
});
