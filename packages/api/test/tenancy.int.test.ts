import type { Database } from "@tidemark/db/client";
import { testDatabase } from "@tidemark/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCEDURE_CASES } from "./procedure-cases.ts";
import { allProcedures, callByPath, createTenant, serialize, type Tenant, tenantMarkers, tenantSnapshot } from "./tenant-fixtures.ts";

/**
 * The cross-tenant suite: an admin of organisation A calls every procedure of the router with
 * organisation B's objects. Whatever names one of B's objects must be refused (queries may instead
 * answer without anything of B: a filter on a foreign host is an empty list); nothing of B may
 * change, and no answer or error may carry anything of B.
 */

let db: Database;
let attacker: Tenant;
let victim: Tenant;

beforeAll(async () => {
  db = await testDatabase();
  // The victim has more deployment versions than the attacker will ever reach in this run (it deploys once more),
  // so the victim's newest version names nothing of the attacker's.
  attacker = await createTenant(db, { deployments: 1 });
  victim = await createTenant(db, { deployments: 6 });
});
afterAll(async () => db.close());

const REFUSED = ["NOT_FOUND", "FORBIDDEN"];
const procedures = allProcedures();

function leaked(answer: unknown, input: unknown): string[] {
  const text = serialize(answer);
  const sent = serialize(input);
  // An id the caller sent may be echoed back without revealing anything.
  return tenantMarkers(victim).filter((marker) => !sent.includes(marker) && text.includes(marker));
}

describe("no organisation can read or change another's objects", () => {
  it("enumerates the procedures from the router", () => {
    expect(procedures.length).toBeGreaterThan(40);
    const missing = procedures.filter((p) => !PROCEDURE_CASES[p.path]).map((p) => p.path);
    expect(missing, `procedures without a case in procedure-cases.ts: ${missing.join(", ")}`).toEqual([]);
  });

  it.each(procedures.map((p) => [p.path, p.type] as const))("%s (%s)", async (path, type) => {
    const entry = PROCEDURE_CASES[path];
    if (!entry) throw new Error(`no cross-tenant case for the procedure ${path}: add one to packages/api/test/procedure-cases.ts`);
    const before = await tenantSnapshot(db, victim.organizationId);
    for (const input of entry.inputs(victim, attacker)) {
      const namesVictim = entry.namesVictim === true || tenantMarkers(victim).some((m) => serialize(input).includes(m));
      // Queries may filter by a foreign id and answer with nothing; everything else naming B is refused.
      const mustRefuse = namesVictim && (type === "mutation" || entry.namesVictim === true);
      let outcome: { ok: true; answer: unknown } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, answer: await callByPath(attacker.admin.caller, path, input) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const label = `${path}(${serialize(input)})`;
      if (outcome.ok) {
        expect(mustRefuse, `${label} must be refused, it answered ${serialize(outcome.answer).slice(0, 300)}`).toBe(false);
        expect(leaked(outcome.answer, input), `${label} answered with the other organisation's data`).toEqual([]);
      } else {
        expect(outcome.error, `${label} failed unexpectedly`).toBeInstanceOf(TRPCError);
        const error = outcome.error as TRPCError;
        if (mustRefuse) expect(REFUSED, `${label}: ${error.code} ${error.message}`).toContain(error.code);
        expect(error.code, `${label}: ${error.message}`).not.toBe("INTERNAL_SERVER_ERROR");
        expect(leaked(error.message, input), `${label}'s error names the other organisation's data`).toEqual([]);
      }
    }
    expect(await tenantSnapshot(db, victim.organizationId), `${path} changed the other organisation`).toBe(before);
  });
});
