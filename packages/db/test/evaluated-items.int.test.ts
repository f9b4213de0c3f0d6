import type { Database } from "@tidemark/db/client";
import { loadEvaluatedItems } from "@tidemark/db/evaluation";
import { constantPolicy, createOrgWithItems, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

describe("loadEvaluatedItems", () => {
  it("gives items with equal policies one shared, frozen policy (the worker's memory at 30 000 jobs, issue 22)", async () => {
    const org = await createOrgWithItems(db, [
      { name: "a", policy: constantPolicy(100) },
      { name: "b", policy: constantPolicy(100) },
      { name: "c", policy: constantPolicy(200) },
      { name: "d", policy: null },
    ]);
    const byItem = new Map((await loadEvaluatedItems(db, org)).map((i) => [i.item, i.policy]));
    expect(byItem.get("a")).toEqual(constantPolicy(100));
    expect(byItem.get("a")).toBe(byItem.get("b"));
    expect(byItem.get("c")).toEqual(constantPolicy(200));
    expect(byItem.get("c")).not.toBe(byItem.get("a"));
    expect(byItem.get("d")).toBeNull();
    // Shared between items, so no item may change it for the others.
    expect(Object.isFrozen(byItem.get("a")!.periods[0]!.hours.entries[0])).toBe(true);
  });
});
