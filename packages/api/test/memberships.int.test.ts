import { hashToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { authenticateApiToken, findSession } from "@tidemark/db/organizations";
import { testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { createTenant, memberOf } from "./tenant-fixtures.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

async function browserSession(userId: string, organizationId: string) {
  const tokenHash = `test-${crypto.randomUUID()}`;
  await testPrisma(db).session.create({
    data: { tokenHash, userId, activeOrganizationId: organizationId, expiresAt: new Date(Date.now() + 600_000) },
  });
  return { tokenHash, caller: createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: true }) };
}

describe("members", () => {
  it("changes roles and removes members, never the last admin, with before/after in the audit log", async () => {
    const tenant = await createTenant(db, { deployments: 0 });
    const admin = tenant.admin.caller;
    await expect(admin.members.changeRole({ userId: tenant.admin.userId, role: "editor" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(admin.members.remove({ userId: tenant.admin.userId })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(admin.members.changeRole({ userId: tenant.memberUserId, role: "editor" })).resolves.toEqual({ role: "editor" });
    const members = await admin.members.list();
    expect(members.map((m) => m.role).sort()).toEqual(["admin", "editor"]);

    const second = await memberOf(db, tenant, "admin");
    // With two admins, one may step down.
    await expect(second.caller.members.changeRole({ userId: tenant.admin.userId, role: "viewer" })).resolves.toEqual({ role: "viewer" });
    await expect(second.caller.members.remove({ userId: tenant.memberUserId })).resolves.toEqual({ userId: tenant.memberUserId });
    expect((await second.caller.members.list()).map((m) => m.userId)).not.toContain(tenant.memberUserId);

    const roleChanges = await second.caller.audit.list({ action: "member.role" });
    expect(roleChanges.entries.map((e) => [e.targetId, e.before, e.after])).toEqual([
      [tenant.admin.userId, { role: "admin" }, { role: "viewer" }],
      [tenant.memberUserId, { role: "viewer" }, { role: "editor" }],
    ]);
    const family = await second.caller.audit.list({ action: "member." });
    expect(family.entries.map((e) => e.action)).toEqual(["member.remove", "member.role", "member.role"]);
    const byActor = await second.caller.audit.list({ actorUserId: second.userId });
    expect(byActor.entries.every((e) => e.actorUserId === second.userId && e.actorEmail === second.email)).toBe(true);
  });
});

describe("invitations and switching organisation", () => {
  it("lets only the invited address accept, joins with the role and switches the session to it", async () => {
    const inviting = await createTenant(db, { deployments: 0 });
    const home = await createTenant(db, { deployments: 0 });
    const joiner = await browserSession(home.admin.userId, home.organizationId);
    const joinerEmail = (await testPrisma(db).user.findUniqueOrThrow({ where: { id: home.admin.userId } })).email;

    const created = await inviting.admin.caller.invitations.create({ email: joinerEmail.toUpperCase(), role: "editor" });
    expect(created.path).toBe(`/invite/${created.token}`);
    const stored = await testPrisma(db).invitation.findUniqueOrThrow({ where: { id: created.invitation.id } });
    expect(stored.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const anonymous = createCaller({ db, session: null, sameOrigin: true });
    await expect(anonymous.invitations.lookup({ token: created.token })).resolves.toMatchObject({
      organizationName: `Tenant ${inviting.mark}`,
      email: joinerEmail,
      role: "editor",
    });
    const outsider = await memberOf(db, home, "viewer");
    await expect(outsider.caller.invitations.accept({ token: created.token })).rejects.toMatchObject({ code: "FORBIDDEN" });

    await expect(joiner.caller.invitations.accept({ token: created.token })).resolves.toMatchObject({
      organizationId: inviting.organizationId,
      role: "editor",
    });
    // The link works once.
    await expect(joiner.caller.invitations.accept({ token: created.token })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await findSession(db, joiner.tokenHash)).toMatchObject({ organizationId: inviting.organizationId, role: "editor" });

    const organizations = await joiner.caller.organizations.list();
    expect(organizations.map((o) => o.id).sort()).toEqual([home.organizationId, inviting.organizationId].sort());
    await expect(joiner.caller.organizations.switch({ organizationId: home.organizationId })).resolves.toEqual({
      organizationId: home.organizationId,
      role: "admin",
    });
    expect(await findSession(db, joiner.tokenHash)).toMatchObject({ organizationId: home.organizationId, role: "admin" });
    const accepted = await inviting.admin.caller.audit.list({ action: "invitation.accept" });
    expect(accepted.entries[0]).toMatchObject({ actorUserId: home.admin.userId, after: { role: "editor" } });
  });

  it("refuses an expired or revoked link", async () => {
    const tenant = await createTenant(db, { deployments: 0 });
    const created = await tenant.admin.caller.invitations.create({ email: `late-${tenant.mark}@test.invalid`, role: "viewer" });
    await testPrisma(db).invitation.update({ where: { id: created.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const anonymous = createCaller({ db, session: null, sameOrigin: true });
    await expect(anonymous.invitations.lookup({ token: created.token })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(tenant.admin.caller.invitations.revoke({ id: tenant.invitationId })).resolves.toEqual({ id: tenant.invitationId });
    await expect(anonymous.invitations.lookup({ token: tenant.invitationToken })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("API tokens", () => {
  it("are stored hashed, act within one organisation with at most their creator's role, and stop when revoked", async () => {
    const tenant = await createTenant(db, { deployments: 0 });
    const editor = await memberOf(db, tenant, "editor");
    await testPrisma(db).membership.update({
      where: { userId_organizationId: { userId: editor.userId, organizationId: tenant.organizationId } },
      data: { role: "admin" },
    });
    const adminCaller = (await browserSession(editor.userId, tenant.organizationId)).caller;
    const created = await adminCaller.tokens.create({ name: "ci", role: "admin" });
    expect(created.secret.startsWith("tm_api_")).toBe(true);
    expect(created.token.prefix).toBe(created.secret.slice(0, created.token.prefix.length));
    const stored = await testPrisma(db).apiToken.findUniqueOrThrow({ where: { id: created.token.id } });
    expect(stored.tokenHash).toBe(hashToken(created.secret));

    const session = await authenticateApiToken(db, hashToken(created.secret));
    expect(session).toMatchObject({ organizationId: tenant.organizationId, role: "admin", userId: editor.userId });
    expect((await testPrisma(db).apiToken.findUniqueOrThrow({ where: { id: created.token.id } })).lastUsedAt).not.toBeNull();

    const viaToken = createCaller({ db, session, sameOrigin: true });
    expect((await viaToken.organizations.list()).map((o) => o.id)).toEqual([tenant.organizationId]);
    await expect(viaToken.organizations.switch({ organizationId: tenant.organizationId })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(viaToken.invitations.accept({ token: tenant.invitationToken })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const host = await viaToken.config.hosts.create({ name: `api${tenant.mark}`, alias: null, description: "" });
    const audit = await tenant.admin.caller.audit.list({ targetId: host.id });
    expect(audit.entries[0]).toMatchObject({ actorUserId: editor.userId, action: "host.create" });

    // Demoting the creator reins the token in.
    await tenant.admin.caller.members.changeRole({ userId: editor.userId, role: "viewer" });
    expect(await authenticateApiToken(db, hashToken(created.secret))).toMatchObject({ role: "viewer" });
    await tenant.admin.caller.tokens.revoke({ id: created.token.id });
    expect(await authenticateApiToken(db, hashToken(created.secret))).toBeNull();
    await expect(tenant.admin.caller.tokens.revoke({ id: created.token.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("CSRF", () => {
  it("refuses every mutation without a same-origin request, and still serves queries", async () => {
    const tenant = await createTenant(db, { deployments: 0 });
    const { tokenHash } = await browserSession(tenant.admin.userId, tenant.organizationId);
    const crossSite = createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: false });
    await expect(crossSite.config.hosts.create({ name: `csrf${tenant.mark}`, alias: null, description: "" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "cross-site request refused",
    });
    await expect(crossSite.members.changeRole({ userId: tenant.memberUserId, role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(crossSite.organizations.switch({ organizationId: tenant.organizationId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await crossSite.config.hosts.list({})).toMatchObject({ rows: [expect.objectContaining({ id: tenant.hostId })] });
  });
});
