import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { describe, expect, it } from "vitest";
import type { CheckRunner } from "../../src/checks/types.ts";
import { parseSchedule } from "../../src/schedule.ts";
import { planChecks, Scheduler } from "../../src/scheduler.ts";

const check = (id: string, schedules: string[], url = "shell://localhost"): AgentCheck => ({
  id,
  host: id.split("-")[0]!,
  service: id.split("-")[1]!,
  url,
  schedules,
  timeoutMs: 500,
  items: [{ name: "i", key: `${id}-i`, exec: "check_dummy 0" }],
});

function recorder(delayMs = 0) {
  const runs: string[] = [];
  const runner: CheckRunner = async (c, signal) => {
    runs.push(c.id);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    return signal.aborted ? [] : c.items.map((i): CheckResult => ({ key: i.key, ts: Date.now(), value: 1, status: 0 }));
  };
  return { runs, runner };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("schedules", () => {
  it("parses intervals, Quartz cron and after:, and refuses nonsense", () => {
    expect(parseSchedule("30S")).toEqual({ kind: "interval", ms: 30_000 });
    expect(parseSchedule("5M")).toEqual({ kind: "interval", ms: 300_000 });
    expect(parseSchedule("0 15 10 ? * MON-FRI")).toMatchObject({ kind: "cron", expression: "0 15 10 ? * MON-FRI" });
    expect(parseSchedule("after:web01-http")).toEqual({ kind: "after", service: "web01-http" });
    expect(() => parseSchedule("0S")).toThrow(/at least 1S/);
    expect(() => parseSchedule("every day x y z")).toThrow(/Quartz/);
  });

  it("refuses a whole configuration when one check is wrong, naming every problem", () => {
    const shellOnly = (c: AgentCheck) => (c.url.startsWith("shell://") ? recorder().runner : null);
    expect(() =>
      planChecks([check("a-s", ["1S"]), check("b-s", ["after:nope-s"]), check("c-s", ["1S"], "bischeck://cache")], shellOnly),
    ).toThrow(/c-s: the agent cannot run bischeck:\/\/ checks; b-s: after:nope-s names no check/);
  });

  it("refuses run-after schedules that loop, and follows chains of any depth", () => {
    const runner = () => recorder().runner;
    expect(() => planChecks([check("a-s", ["1S", "after:c-s"]), check("b-s", ["after:a-s"]), check("c-s", ["after:b-s"])], runner)).toThrow(
      /run-after schedules loop: a-s → b-s → c-s → a-s/,
    );
    const plan = planChecks(
      [check("a-s", ["1S"]), check("b-s", ["after:a-s"]), check("c-s", ["after:b-s"]), check("d-s", ["after:c-s"])],
      runner,
    );
    expect(plan.get("c-s")?.followers.map((f) => f.id)).toEqual(["d-s"]);
  });
});

describe("Scheduler", () => {
  it("runs interval checks, then their after: followers", async () => {
    const { runs, runner } = recorder();
    const results: CheckResult[] = [];
    const scheduler = new Scheduler(4, { results: (r) => results.push(...r), overlap: () => undefined }, () => runner);
    scheduler.apply([check("a-s", ["1S"]), check("b-s", ["after:a-s"])]);
    await sleep(2300);
    scheduler.stop();
    const a = runs.filter((r) => r === "a-s").length;
    expect(a).toBeGreaterThanOrEqual(2);
    expect(runs.filter((r) => r === "b-s").length).toBe(a);
    expect(runs[runs.indexOf("a-s") + 1]).toBe("b-s");
    expect(results.length).toBe(runs.length);
  });

  it("swaps configurations atomically and leaves no timer behind", async () => {
    const { runs, runner } = recorder();
    const scheduler = new Scheduler(4, { results: () => undefined, overlap: () => undefined }, () => runner);
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    for (let i = 0; i < 200; i++) scheduler.apply([check("a-s", ["1S", "2S"]), check(`b${i}-s`, ["0 0 3 ? * MON"])]);
    expect(scheduler.armed).toBe(3);
    expect(() => scheduler.apply([check("c-s", ["nonsense x y z w v"])])).toThrow();
    expect(scheduler.checkCount).toBe(2);
    scheduler.apply([check("c-s", ["1S"])]);
    await sleep(1200);
    expect(new Set(runs)).toEqual(new Set(["c-s"]));
    scheduler.stop();
    expect(scheduler.armed).toBe(0);
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBeLessThanOrEqual(timersBefore);
  });

  it("limits concurrency and never overlaps a check with itself", async () => {
    let active = 0;
    let peak = 0;
    let overlaps = 0;
    const runner: CheckRunner = async (c) => {
      active++;
      peak = Math.max(peak, active);
      await sleep(150);
      active--;
      return c.items.map((i) => ({ key: i.key, ts: Date.now(), value: 1 }));
    };
    const scheduler = new Scheduler(2, { results: () => undefined, overlap: () => overlaps++ }, () => runner);
    scheduler.apply(Array.from({ length: 6 }, (_, i) => check(`h${i}-s`, ["1H"])));
    for (let i = 0; i < 6; i++) scheduler.trigger(`h${i}-s`);
    scheduler.trigger("h0-s");
    expect(overlaps).toBe(1);
    await sleep(600);
    expect(peak).toBe(2);
    scheduler.stop();
  });
});
