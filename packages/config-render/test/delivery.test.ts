import { describe, expect, it } from "vitest";
import { countDeliveries, DELIVERY_TIMEOUT_MS, deliveryState, isSettled, ONLINE_WINDOW_MS, type TargetFacts } from "../src/index.ts";

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const at = (msAgo: number) => new Date(NOW - msAgo);
const facts = (overrides: Partial<TargetFacts>): TargetFacts => ({
  status: "pending",
  lastError: null,
  updatedAt: at(1000),
  nextAttemptAt: null,
  lastSeenAt: at(1000),
  deployedAt: at(1000),
  ...overrides,
});

describe("deliveryState", () => {
  it.each([
    { name: "applied", target: facts({ status: "applied" }), expected: { kind: "applied" } },
    { name: "superseded by a later version", target: facts({ status: "superseded", lastSeenAt: null }), expected: { kind: "superseded" } },
    {
      name: "failed, with the agent's own error",
      target: facts({ status: "failed", lastError: "line 3: not a Quartz cron expression", nextAttemptAt: at(-5000) }),
      expected: { kind: "failed", error: "line 3: not a Quartz cron expression", retryAt: at(-5000) },
    },
    { name: "an agent that never connected", target: facts({ lastSeenAt: null }), expected: { kind: "never-connected" } },
    {
      name: "an agent offline since its last poll",
      target: facts({ status: "delivered", lastSeenAt: at(ONLINE_WINDOW_MS + 1) }),
      expected: { kind: "offline", since: at(ONLINE_WINDOW_MS + 1) },
    },
    { name: "pending while online", target: facts({}), expected: { kind: "pending" } },
    {
      name: "delivered while online",
      target: facts({ status: "delivered", updatedAt: at(2000) }),
      expected: { kind: "delivered", at: at(2000) },
    },
    {
      name: "online but not fetched for too long",
      target: facts({ deployedAt: at(DELIVERY_TIMEOUT_MS + 1) }),
      expected: { kind: "timed-out", stage: "pending", since: at(DELIVERY_TIMEOUT_MS + 1) },
    },
    {
      name: "delivered but never reported applied",
      target: facts({ status: "delivered", updatedAt: at(DELIVERY_TIMEOUT_MS + 1) }),
      expected: { kind: "timed-out", stage: "delivered", since: at(DELIVERY_TIMEOUT_MS + 1) },
    },
  ])("$name", ({ target, expected }) => {
    expect(deliveryState(target, NOW)).toEqual(expected);
  });

  it("counts from the very states shown, and a version is done only when every agent applied it or moved past it", () => {
    const states = [facts({ status: "applied" }), facts({ status: "superseded" }), facts({ lastSeenAt: null })].map((t) =>
      deliveryState(t, NOW),
    );
    expect(countDeliveries(states)).toEqual({ applied: 1, superseded: 1, "never-connected": 1 });
    expect(states.map(isSettled)).toEqual([true, true, false]);
  });
});
