import type { Database } from "@tidemark/db/client";
import { constantPolicy, testDatabase } from "@tidemark/db/testing";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";
import { itemFields, serviceFields } from "./tenant-fixtures.ts";

/** What a client can send that must be refused with a reason (4xx), never stored and never a 500. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

function withExpressionAt(hour: number, source: string): ThresholdPolicy {
  const policy = constantPolicy(10);
  const period = policy.periods[0];
  if (!period) throw new Error("constantPolicy has one period");
  period.hours.entries[hour] = { kind: "expression", source };
  return policy;
}

async function editorWithItem() {
  const { caller } = await signedInMember(db, "editor");
  const host = await caller.config.hosts.create({ name: "h", alias: null, description: "" });
  const service = await caller.config.services.create({ hostId: host.id, fields: serviceFields("s") });
  const item = await caller.config.items.create({ serviceId: service.id, fields: itemFields("i"), policy: null });
  return { caller, itemId: item.id, serviceId: service.id };
}

describe("threshold expressions are parsed on the server when saved", () => {
  it.each([
    ["((1", 7],
    ["h-s-i[0] +", 3],
    ["avg(h-s-i[0:5]", 23],
  ])("refuses %s with the hour and the position, and stores nothing", async (source, hour) => {
    const { caller, itemId, serviceId } = await editorWithItem();
    const error = await caller.thresholds.save({ itemId, policy: withExpressionAt(hour, source), revision: null }).catch((e) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error.code).toBe("BAD_REQUEST");
    const issue = error.cause.issues[0];
    expect(issue.path).toEqual(["policy", "periods", 0, "hours", "entries", hour, "source"]);
    expect(issue.message).toMatch(new RegExp(`hour ${String(hour).padStart(2, "0")}: .* at 1:\\d+`));
    expect((await caller.thresholds.item({ id: itemId })).policy).toBeNull();

    await expect(
      caller.config.items.create({ serviceId, fields: itemFields("j"), policy: withExpressionAt(hour, source) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      caller.config.items.applyTemplate({ name: "t", policy: withExpressionAt(hour, source), itemIds: [itemId] }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("accepts an expression that parses", async () => {
    const { caller, itemId } = await editorWithItem();
    const saved = await caller.thresholds.save({ itemId, policy: withExpressionAt(3, "avg(h-s-i[0:5]) * 1.1"), revision: null });
    expect(saved.revision).toBe(1);
  });
});

describe("the Bischeck import preview", () => {
  it("answers 50 000-deep XML with a 4xx and a reason", async () => {
    const { caller } = await signedInMember(db, "editor");
    const deep = `<bischeck>${"<a>".repeat(50_000)}${"</a>".repeat(50_000)}</bischeck>`;
    const outcome = await caller.bischeck.previewImport({ bischeckXml: deep }).catch((error: unknown) => error);
    // A refusal (BAD_REQUEST) or the importer's own list of problems; never an internal error.
    if (outcome instanceof TRPCError) {
      expect(outcome.code).toBe("BAD_REQUEST");
      expect(outcome.message).toMatch(/could not be read: .*nest/i);
    } else {
      expect(outcome).toMatchObject({ ok: false });
    }
  });
});

describe("strings PostgreSQL cannot store", () => {
  it.each([
    ["a NUL in a host name", { name: "web\u000001", alias: null, description: "" }, /^name contains a NUL/],
    [
      "a lone surrogate in a description",
      { name: "web01", alias: null, description: "caf\ud800" },
      /^description contains a lone UTF-16 surrogate/,
    ],
  ])("answers %s with 400 and the field", async (_, input, message) => {
    const { caller } = await signedInMember(db, "editor");
    await expect(caller.config.hosts.create(input)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(message) });
    expect((await caller.config.hosts.list({ limit: 10 })).rows).toEqual([]);
  });
});
