import type { Database } from "@tidemark/db/client";
import type { Role } from "@tidemark/db/organizations";
import { testDatabase } from "@tidemark/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCEDURE_CASES } from "./procedure-cases.ts";
import {
  allProcedures,
  type Caller,
  callByPath,
  createTenant,
  memberOf,
  serialize,
  type Tenant,
  tenantSnapshot,
} from "./tenant-fixtures.ts";

/**
 * The role suite: a viewer, an editor and an admin each call every mutating procedure on their own
 * organisation's objects. Below the procedure's required role the call is refused with FORBIDDEN
 * and nothing changes; at or above it, the role is never the reason for a refusal.
 */

/** `member`: any signed-in member, whatever the role (the procedure is about the user, not the organisation). */
const REQUIRED_ROLE: Record<string, Role | "member"> = {
  "config.hosts.create": "editor",
  "config.hosts.update": "editor",
  "config.hosts.delete": "editor",
  "config.hosts.clone": "editor",
  "config.services.create": "editor",
  "config.services.update": "editor",
  "config.services.delete": "editor",
  "config.services.clone": "editor",
  "config.services.assign": "editor",
  "config.items.create": "editor",
  "config.items.update": "editor",
  "config.items.delete": "editor",
  "config.items.clone": "editor",
  "config.items.applyTemplate": "editor",
  "thresholds.save": "editor",
  "thresholds.setValueBounds": "editor",
  // Read-only mutations (the draft policy travels in the body).
  "thresholds.suggest": "viewer",
  "preview.run": "viewer",
  "bischeck.previewImport": "editor",
  "bischeck.commitImport": "editor",
  "deploy.deploy": "editor",
  "deploy.rollback": "editor",
  "agents.create": "admin",
  "agents.revoke": "admin",
  "alerts.acknowledge": "editor",
  "alerts.updateItemSettings": "editor",
  "alerts.silences.create": "editor",
  "alerts.silences.expire": "editor",
  "alerts.webhooks.create": "editor",
  "alerts.webhooks.update": "editor",
  "alerts.webhooks.delete": "editor",
  "organizations.switch": "member",
  "organizations.create": "member",
  "organizations.setTimeZone": "admin",
  "members.changeRole": "admin",
  "members.remove": "admin",
  "invitations.create": "admin",
  "invitations.revoke": "admin",
  "invitations.accept": "member",
  "prometheus.setCreatesSeries": "admin",
  "tokens.create": "admin",
  "tokens.revoke": "admin",
};

const ROLES: Role[] = ["viewer", "editor", "admin"];
const RANK: Record<Role | "member", number> = { member: 0, viewer: 0, editor: 1, admin: 2 };
const ROLE_REFUSAL = /this needs the \w+ role/;

let db: Database;
const callers = new Map<Role, { tenant: Tenant; caller: Caller }>();

beforeAll(async () => {
  db = await testDatabase();
  for (const role of ROLES) {
    const tenant = await createTenant(db, { deployments: 1 });
    callers.set(role, { tenant, caller: (await memberOf(db, tenant, role)).caller });
  }
});
afterAll(async () => db.close());

const mutations = allProcedures().filter((p) => p.type === "mutation");

describe("each role against each mutating procedure", () => {
  it("enumerates the mutations from the router, each with its required role", () => {
    expect(mutations.length).toBeGreaterThan(20);
    const missing = mutations.filter((p) => !REQUIRED_ROLE[p.path]).map((p) => p.path);
    expect(missing, `mutations without a required role in roles.int.test.ts: ${missing.join(", ")}`).toEqual([]);
  });

  const cases = ROLES.flatMap((role) => mutations.map((p) => [p.path, role] as const));
  it.each(cases)("%s as %s", async (path, role) => {
    const required = REQUIRED_ROLE[path];
    const entry = PROCEDURE_CASES[path];
    if (!required) throw new Error(`no required role for the mutation ${path}: add it to REQUIRED_ROLE in roles.int.test.ts`);
    if (!entry) throw new Error(`no case for the procedure ${path}: add one to packages/api/test/procedure-cases.ts`);
    const { tenant, caller } = callers.get(role)!;
    for (const input of entry.inputs(tenant, tenant)) {
      const label = `${path}(${serialize(input)}) as ${role}`;
      if (RANK[role] < RANK[required]) {
        const before = await tenantSnapshot(db, tenant.organizationId);
        const error = await callByPath(caller, path, input).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, `${label} must be refused`).toBeInstanceOf(TRPCError);
        expect((error as TRPCError).code, label).toBe("FORBIDDEN");
        expect((error as TRPCError).message, label).toMatch(ROLE_REFUSAL);
        expect(await tenantSnapshot(db, tenant.organizationId), `${label} changed the organisation`).toBe(before);
      } else {
        const error = await callByPath(caller, path, input).then(
          () => null,
          (e: unknown) => e,
        );
        // Other refusals (a conflict, an object an earlier case deleted) are fine: the role was enough.
        if (error !== null) {
          expect(error, label).toBeInstanceOf(TRPCError);
          expect((error as TRPCError).code, `${label}: ${(error as Error).message}`).not.toBe("INTERNAL_SERVER_ERROR");
          expect((error as TRPCError).message, label).not.toMatch(ROLE_REFUSAL);
        }
      }
    }
  });
});
