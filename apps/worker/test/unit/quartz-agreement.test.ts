import { DST_EDGE_CASES, QUARTZ_CASES } from "@tidemark/schedule/testing";
import { describe, expect, it } from "vitest";
import { latestDue, parseSchedule } from "../../src/schedule.ts";

/**
 * The worker's calculation scheduler finds due runs with `latestDue`; held to the shared Quartz
 * table (the agent is held to the same table in apps/agent): at every fire time of the table the
 * run falls due, and nothing falls due in between or after the last.
 */
describe("the worker finds calculations due at Quartz's fire times, in the organisation's time zone", () => {
  it.each([...QUARTZ_CASES, ...DST_EDGE_CASES].map((c) => [`${c.expression} (${c.timeZone}): ${c.meaning}`, c] as const))("%s", (_, c) => {
    const schedule = parseSchedule(c.expression, "service", c.timeZone);
    let lastDue = Date.parse(c.from) - 1;
    for (const fire of c.fires.map(Date.parse)) {
      expect(latestDue(schedule, fire - 1, lastDue), `nothing due before ${new Date(fire).toISOString()}`).toBeNull();
      expect(latestDue(schedule, fire, lastDue)).toBe(fire);
      lastDue = fire;
    }
    expect(latestDue(schedule, Date.parse(c.to) - 1, lastDue)).toBeNull();
  });
});
