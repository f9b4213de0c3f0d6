import { describe, expect, it } from "vitest";
import { SharedReads } from "../src/shared-reads.ts";
import { serializeOutput } from "../src/wire-format.ts";

/** A load that counts its calls and answers when told to. */
function countedLoad<T>(value: T) {
  const load = async () => {
    load.calls++;
    return value;
  };
  load.calls = 0;
  return load;
}

/** lru-cache takes a start time of 0 for "never set": the clock starts later. */
function reads(clock = { ms: 1_000_000 }) {
  return { clock, shared: new SharedReads({ ttlMs: 1_000, maxEntries: 100, now: () => clock.ms }) };
}

describe("SharedReads", () => {
  it("answers concurrent callers of the same read with one load", async () => {
    const { shared } = reads();
    const load = countedLoad({ rows: [1, 2] });
    const answers = await Promise.all(Array.from({ length: 50 }, () => shared.read("org-a", "dashboard.items", { limit: 50 }, load)));
    expect(load.calls).toBe(1);
    for (const answer of answers) expect(answer).toEqual({ rows: [1, 2] });
  });

  it("hands every caller the same read-only answer, whose wire form is written once", async () => {
    const { shared } = reads();
    const load = countedLoad({ rows: [{ id: "a", at: new Date(1) }] });
    const [a, b] = await Promise.all([
      shared.read("org-a", "dashboard.items", {}, load),
      shared.read("org-a", "dashboard.items", {}, load),
    ]);
    expect(b).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(serializeOutput(b)).toBe(serializeOutput(a));
  });

  it("loads again once the answer is older than its time to live", async () => {
    const { clock, shared } = reads();
    const load = countedLoad("x");
    await shared.read("org-a", "dashboard.items", {}, load);
    clock.ms += 999;
    await shared.read("org-a", "dashboard.items", {}, load);
    expect(load.calls).toBe(1);
    clock.ms += 2;
    await shared.read("org-a", "dashboard.items", {}, load);
    expect(load.calls).toBe(2);
  });

  it.each([
    ["another organisation", "org-b", "dashboard.items", { limit: 50 }],
    ["another procedure", "org-a", "dashboard.overview", { limit: 50 }],
    ["another input", "org-a", "dashboard.items", { limit: 51 }],
  ])("never hands one read's answer to %s", async (_case, organizationId, what, input) => {
    const { shared } = reads();
    await shared.read("org-a", "dashboard.items", { limit: 50 }, async () => "org-a's items");
    expect(await shared.read(organizationId, what, input, async () => "its own")).toBe("its own");
  });

  it("drops an organisation's answers when it is told its data changed, and only that organisation's", async () => {
    const { shared } = reads();
    await shared.read("org-a", "dashboard.items", {}, async () => "before");
    await shared.read("org-b", "dashboard.items", {}, async () => "b's");
    shared.forget("org-a");
    expect(await shared.read("org-a", "dashboard.items", {}, async () => "after")).toBe("after");
    expect(await shared.read("org-b", "dashboard.items", {}, async () => "reloaded")).toBe("b's");
  });

  it("keeps no failed load: every waiting caller gets the error, the next read loads again", async () => {
    const { shared } = reads();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error("database unavailable");
    };
    const outcomes = await Promise.allSettled([shared.read("org-a", "x", {}, failing), shared.read("org-a", "x", {}, failing)]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toBe(1);
    expect(await shared.read("org-a", "x", {}, async () => "back")).toBe("back");
  });
});
