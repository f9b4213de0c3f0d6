import type { Database } from "@tidemark/db/client";
import { createOrgWithItems, createTestOrg, deleteWebhooksOf, execute, queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlert } from "./open-alert.ts";
import { signedInMember } from "./signed-in.ts";

/**
 * Every change the API makes writes its audit entry inside the change's own transaction: when the
 * entry cannot be written (a trigger refuses entries by the acting user), the change is not made
 * either; when it can, there is exactly one entry, by the true actor.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  await execute(
    db,
    `
    CREATE TABLE IF NOT EXISTS test_audit_refused_actors (user_id uuid PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS test_audit_refused_actions (user_id uuid, action text, PRIMARY KEY (user_id, action));
    CREATE OR REPLACE FUNCTION refuse_audit_of_actor() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_audit_refused_actors WHERE user_id = NEW.actor_user_id)
         OR EXISTS (SELECT 1 FROM test_audit_refused_actions WHERE user_id = NEW.actor_user_id AND action = NEW.action) THEN
        RAISE EXCEPTION 'audit log unavailable';
      END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER IF EXISTS refuse_audit_of_actor ON audit_log;
    CREATE TRIGGER refuse_audit_of_actor BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit_of_actor();`,
  );
});
afterAll(async () => {
  if (db)
    await execute(
      db,
      `DROP TRIGGER IF EXISTS refuse_audit_of_actor ON audit_log; DROP FUNCTION IF EXISTS refuse_audit_of_actor();
    DROP TABLE IF EXISTS test_audit_refused_actors; DROP TABLE IF EXISTS test_audit_refused_actions`,
    );
  await db?.close();
});

type Admin = Awaited<ReturnType<typeof signedInMember>>;
type Caller = Admin["caller"];

interface Case {
  action: string;
  /** Prepares what the change needs; answers the change, who makes it and what it changes. */
  setup(admin: Admin): Promise<{ change: () => Promise<unknown>; state: () => Promise<unknown>; actorUserId?: string }>;
}

const rows = (sql: string, params: unknown[]) => queryRows(db, sql, params);
const webhook = (caller: Caller) => caller.alerts.webhooks.create({ name: "ops", url: "https://hooks.example.com/x" });
const silence = (caller: Caller) =>
  caller.alerts.silences.create({ matchers: { host: "h" }, endsAt: new Date(Date.now() + 3_600_000), comment: "maintenance" });

async function anotherMember(organizationId: string, role: "viewer" | "editor" | "admin") {
  const { user } = await createTestOrg(db, "viewer");
  await testPrisma(db).membership.create({ data: { userId: user.id, organizationId, role } });
  return user;
}

const cases: Case[] = [
  {
    action: "silence.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => silence(caller),
      state: () => rows(`SELECT id FROM silences WHERE organization_id = $1`, [organizationId]),
    }),
  },
  {
    action: "silence.expire",
    setup: async ({ caller }) => {
      const { id } = await silence(caller);
      return { change: () => caller.alerts.silences.expire({ id }), state: () => rows(`SELECT ends_at FROM silences WHERE id = $1`, [id]) };
    },
  },
  {
    action: "webhook.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => webhook(caller),
      state: () => rows(`SELECT id FROM webhooks WHERE organization_id = $1`, [organizationId]),
    }),
  },
  {
    action: "webhook.update",
    setup: async ({ caller }) => {
      const { id } = await webhook(caller);
      return {
        change: () => caller.alerts.webhooks.update({ id, name: "renamed", enabled: false }),
        state: () => rows(`SELECT name, enabled FROM webhooks WHERE id = $1`, [id]),
      };
    },
  },
  {
    action: "webhook.delete",
    setup: async ({ caller }) => {
      const { id } = await webhook(caller);
      return { change: () => caller.alerts.webhooks.delete({ id }), state: () => rows(`SELECT id FROM webhooks WHERE id = $1`, [id]) };
    },
  },
  {
    action: "alert.acknowledge",
    setup: async ({ caller, organizationId }) => {
      await openAlert(db, organizationId, "h-s-load");
      const { id } = await testPrisma(db).alert.findFirstOrThrow({ where: { organizationId } });
      return {
        change: () => caller.alerts.acknowledge({ id, comment: "on it" }),
        state: () =>
          rows(
            `SELECT a.acknowledged_at, (SELECT count(*)::int FROM alert_events e WHERE e.alert_id = a.id) AS events FROM alerts a WHERE a.id = $1`,
            [id],
          ),
      };
    },
  },
  {
    action: "item.alert-settings",
    setup: async ({ caller, organizationId }) => {
      const { id } = await testPrisma(db).serviceItem.findFirstOrThrow({ where: { organizationId } });
      return {
        change: () => caller.alerts.updateItemSettings({ itemId: id, recoveryMarginPercent: 12, minimumDurationSeconds: 120 }),
        state: () => rows(`SELECT alert_recovery_margin, alert_min_duration_seconds FROM service_items WHERE id = $1`, [id]),
      };
    },
  },
  {
    action: "agent.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.agents.create({ name: "edge-1" }),
      state: () => rows(`SELECT id FROM agents WHERE organization_id = $1`, [organizationId]),
    }),
  },
  {
    action: "agent.revoke",
    setup: async ({ caller }) => {
      const { agent } = await caller.agents.create({ name: "edge-2" });
      return {
        change: () => caller.agents.revoke({ id: agent.id }),
        state: () => rows(`SELECT revoked_at FROM agents WHERE id = $1`, [agent.id]),
      };
    },
  },
  {
    action: "service.assign",
    setup: async ({ caller, organizationId }) => {
      const { agent } = await caller.agents.create({ name: "edge-3" });
      const service = await testPrisma(db).service.findFirstOrThrow({ where: { organizationId } });
      return {
        change: () => caller.config.services.assign({ agentId: agent.id, target: { serviceIds: [service.id] } }),
        state: () => rows(`SELECT agent_id FROM services WHERE id = $1`, [service.id]),
      };
    },
  },
  {
    action: "deployment.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.deploy.deploy({ message: "again" }),
      state: () => rows(`SELECT version FROM deployments WHERE organization_id = $1 ORDER BY version`, [organizationId]),
    }),
  },
  {
    action: "deployment.rollback",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.deploy.rollback({ version: 1 }),
      state: () => rows(`SELECT version FROM deployments WHERE organization_id = $1 ORDER BY version`, [organizationId]),
    }),
  },
  {
    action: "member.role",
    setup: async ({ caller, organizationId }) => {
      const member = await anotherMember(organizationId, "viewer");
      return {
        change: () => caller.members.changeRole({ userId: member.id, role: "editor" }),
        state: () => rows(`SELECT role FROM memberships WHERE user_id = $1`, [member.id]),
      };
    },
  },
  {
    action: "member.remove",
    setup: async ({ caller, organizationId }) => {
      const member = await anotherMember(organizationId, "editor");
      return {
        change: () => caller.members.remove({ userId: member.id }),
        state: () => rows(`SELECT role FROM memberships WHERE user_id = $1 AND organization_id = $2`, [member.id, organizationId]),
      };
    },
  },
  {
    action: "api-token.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.tokens.create({ name: "ci", role: "viewer" }),
      state: () => rows(`SELECT id FROM api_tokens WHERE organization_id = $1`, [organizationId]),
    }),
  },
  {
    action: "api-token.revoke",
    setup: async ({ caller }) => {
      const { token } = await caller.tokens.create({ name: "ci", role: "viewer" });
      return {
        change: () => caller.tokens.revoke({ id: token.id }),
        state: () => rows(`SELECT revoked_at FROM api_tokens WHERE id = $1`, [token.id]),
      };
    },
  },
  {
    action: "invitation.create",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.invitations.create({ email: `invitee-${crypto.randomUUID()}@test.invalid`, role: "viewer" }),
      state: () => rows(`SELECT id FROM invitations WHERE organization_id = $1`, [organizationId]),
    }),
  },
  {
    action: "invitation.revoke",
    setup: async ({ caller }) => {
      const { invitation } = await caller.invitations.create({ email: `invitee-${crypto.randomUUID()}@test.invalid`, role: "viewer" });
      return {
        change: () => caller.invitations.revoke({ id: invitation.id }),
        state: () => rows(`SELECT id FROM invitations WHERE id = $1`, [invitation.id]),
      };
    },
  },
  {
    action: "invitation.accept",
    setup: async ({ caller, organizationId }) => {
      const { user, caller: invitee } = await signedInMember(db, "admin");
      const { token } = await caller.invitations.create({ email: user.email, role: "editor" });
      return {
        change: () => invitee.invitations.accept({ token }),
        state: () => rows(`SELECT role FROM memberships WHERE user_id = $1 AND organization_id = $2`, [user.id, organizationId]),
        actorUserId: user.id,
      };
    },
  },
  {
    action: "organization.create",
    setup: async ({ caller, user }) => ({
      change: () => caller.organizations.create({ name: "Second Org" }),
      state: () => rows(`SELECT organization_id FROM memberships WHERE user_id = $1`, [user.id]),
    }),
  },
  {
    action: "organization.time_zone",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.organizations.setTimeZone({ timeZone: "Europe/Stockholm" }),
      state: () => rows(`SELECT time_zone FROM organizations WHERE id = $1`, [organizationId]),
    }),
  },
  {
    action: "prometheus.settings",
    setup: async ({ caller, organizationId }) => ({
      change: () => caller.prometheus.setCreatesSeries({ on: false }),
      state: () => rows(`SELECT prometheus_creates_series FROM organizations WHERE id = $1`, [organizationId]),
    }),
  },
];

describe("each change and its audit entry, in one transaction", () => {
  it.each(cases)("$action: refused whole when its entry cannot be written; one entry by its actor otherwise", async ({ action, setup }) => {
    const organizationId = await createOrgWithItems(db, [{ name: "load" }]);
    const admin = await signedInMember(db, "admin", organizationId);
    try {
      const { change, state, actorUserId = admin.user.id } = await setup(admin);
      const entries = () => testPrisma(db).auditEntry.findMany({ where: { action, actorUserId } });
      const before = await state();
      await execute(db, `INSERT INTO test_audit_refused_actors VALUES ($1)`, [actorUserId]);
      await expect(change()).rejects.toThrow();
      await execute(db, `DELETE FROM test_audit_refused_actors WHERE user_id = $1`, [actorUserId]);
      expect(await state()).toEqual(before);
      expect(await entries()).toEqual([]);

      await change();
      expect(await state()).not.toEqual(before);
      expect((await entries()).map((e) => [e.action, e.actorKind])).toEqual([[action, "user"]]);
    } finally {
      await deleteWebhooksOf(db, [organizationId]);
    }
  });
});

describe("a service created or edited with its agent: the change and the assignment in one transaction", () => {
  const fields = { name: "disk", description: "", schedules: ["5M"], url: "shell://localhost", sendServiceData: true };
  const edits = [
    {
      action: "service.create",
      change: (caller: Caller, ids: { hostId: string; serviceId: string; agentId: string }) =>
        caller.config.services.create({ hostId: ids.hostId, fields, agentId: ids.agentId }),
    },
    {
      action: "service.update",
      change: (caller: Caller, ids: { hostId: string; serviceId: string; agentId: string }) =>
        caller.config.services.update({ id: ids.serviceId, fields: { ...fields, name: "renamed" }, agentId: ids.agentId }),
    },
  ];
  it.each(edits)("$action: not made when its assignment's entry cannot be written; both entries otherwise", async ({ action, change }) => {
    const organizationId = await createOrgWithItems(db, [{ name: "load" }]);
    const { caller, user } = await signedInMember(db, "admin", organizationId);
    const { agent } = await caller.agents.create({ name: "edge" });
    const service = await testPrisma(db).service.findFirstOrThrow({ where: { organizationId } });
    const ids = { hostId: service.hostId, serviceId: service.id, agentId: agent.id };
    const state = () => rows(`SELECT name, url, agent_id FROM services WHERE organization_id = $1 ORDER BY name`, [organizationId]);
    const entries = () =>
      testPrisma(db).auditEntry.findMany({ where: { actorUserId: user.id, action: { in: [action, "service.assign"] } } });
    const before = await state();

    await execute(db, `INSERT INTO test_audit_refused_actions VALUES ($1, 'service.assign')`, [user.id]);
    await expect(change(caller, ids)).rejects.toThrow();
    await execute(db, `DELETE FROM test_audit_refused_actions WHERE user_id = $1`, [user.id]);
    expect(await state()).toEqual(before);
    expect(await entries()).toEqual([]);

    await change(caller, ids);
    expect(await state()).not.toEqual(before);
    expect(
      await rows(`SELECT agent_id FROM services WHERE organization_id = $1 AND name = $2`, [
        organizationId,
        action === "service.create" ? "disk" : "renamed",
      ]),
    ).toEqual([{ agent_id: agent.id }]);
    expect((await entries()).map((e) => e.action).sort()).toEqual([action, "service.assign"].sort());
  });
});
