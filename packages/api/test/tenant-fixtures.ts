import { randomUUID } from "node:crypto";
import { miniBischeck } from "@tidemark/bischeck/testing";
import { applyEvaluations } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";
import type { Role } from "@tidemark/db/organizations";
import { constantPolicy, testPrisma } from "@tidemark/db/testing";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { appRouter, type createCaller } from "../src/index.ts";
import { sessionCaller } from "./signed-in.ts";

/**
 * One organisation with one of everything the routers take ids of, built through the API itself,
 * for the tenancy and role suites. Every name carries the tenant's `mark`, so a leak of any of
 * its rows into another tenant's answer is visible in the serialized answer.
 */

export type Caller = ReturnType<typeof createCaller>;

export interface Tenant {
  organizationId: string;
  mark: string;
  admin: { userId: string; caller: Caller };
  hostId: string;
  serviceId: string;
  itemId: string;
  seriesKey: string;
  seriesId: number;
  agentId: string;
  /** The newest deployment version. */
  deploymentVersion: number;
  alertId: string;
  silenceId: string;
  webhookId: string;
  /** A viewer member besides the admin. */
  memberUserId: string;
  invitationId: string;
  /** A pending invitation's link secret, for another address than any member's. */
  invitationToken: string;
  apiTokenId: string;
  policy: ThresholdPolicy;
}

export { constantPolicy };

export const itemFields = (name: string) => ({
  name,
  description: "",
  execStatement: "check_http",
  thresholdClass: null,
  serviceItemClass: null,
  cacheMaxCount: null,
});

export const serviceFields = (name: string) => ({
  name,
  description: "",
  schedules: ["1M"],
  url: "shell://localhost",
  sendServiceData: true,
});

/** The Bischeck suite's minimal bischeck.xml, with the host renamed so that imports do not collide. */
export const miniBischeckXml = (hostName: string) => miniBischeck.replace("<name>h</name>", `<name>${hostName}</name>`);

async function newUser(db: Database, mark: string, label: string) {
  return testPrisma(db).user.create({
    data: { email: `${label}-${mark}@test.invalid`, name: `${label} ${mark}`, passwordHash: "scrypt$1$1$1$x$y" },
  });
}

/** A member of the tenant's organisation with `role`, signed in there. */
export async function memberOf(db: Database, tenant: Tenant, role: Role) {
  const user = await newUser(db, tenant.mark, `${role}${randomUUID().slice(0, 6)}`);
  await testPrisma(db).membership.create({ data: { userId: user.id, organizationId: tenant.organizationId, role } });
  return { userId: user.id, email: user.email, caller: await sessionCaller(db, user.id, tenant.organizationId) };
}

export async function createTenant(db: Database, options: { deployments: number }): Promise<Tenant> {
  const mark = randomUUID().slice(0, 8);
  const adminUser = await newUser(db, mark, "admin");
  const organization = await testPrisma(db).organization.create({
    data: { slug: `tenant-${mark}`, name: `Tenant ${mark}`, memberships: { create: { userId: adminUser.id, role: "admin" } } },
  });
  const caller = await sessionCaller(db, adminUser.id, organization.id);
  const hostName = `h${mark}`;
  const host = await caller.config.hosts.create({ name: hostName, alias: null, description: `host of ${mark}` });
  const service = await caller.config.services.create({ hostId: host.id, fields: serviceFields("svc") });
  const policy = constantPolicy(100);
  const item = await caller.config.items.create({ serviceId: service.id, fields: itemFields("latency"), policy });
  const seriesKey = `${hostName}-svc-latency`;
  const seriesId = (await ensureSeries(db, organization.id, [seriesKey])).get(seriesKey) as number;
  const agent = await caller.agents.create({ name: `agent${mark}` });
  let deploymentVersion = 0;
  for (let i = 0; i < options.deployments; i++) {
    deploymentVersion = (await caller.deploy.deploy({ message: `deploy ${i} of ${mark}` })).version;
  }
  await applyEvaluations(db, organization.id, [
    {
      seriesId,
      key: seriesKey,
      ts: new Date(Date.now() - 60_000),
      state: "CRITICAL",
      hardState: "CRITICAL",
      hard: true,
      value: 9,
      threshold: 5,
      warning: 6,
      critical: 7,
      explanation: `CRITICAL 9 (${mark})`,
    },
  ]);
  const alert = await testPrisma(db).alert.findFirstOrThrow({ where: { organizationId: organization.id } });
  const silence = await caller.alerts.silences.create({
    matchers: { host: hostName, service: "*", item: "*" },
    endsAt: new Date(Date.now() + 3_600_000),
    comment: `maintenance ${mark}`,
  });
  const webhook = await caller.alerts.webhooks.create({ name: `hook ${mark}`, url: `https://hooks.example.test/${mark}` });
  const member = await newUser(db, mark, "viewer");
  await testPrisma(db).membership.create({ data: { userId: member.id, organizationId: organization.id, role: "viewer" } });
  const invited = await caller.invitations.create({ email: `invitee-${mark}@test.invalid`, role: "editor" });
  const apiToken = await caller.tokens.create({ name: `script ${mark}`, role: "viewer" });
  return {
    organizationId: organization.id,
    mark,
    admin: { userId: adminUser.id, caller },
    hostId: host.id,
    serviceId: service.id,
    itemId: item.id,
    seriesKey,
    seriesId,
    agentId: agent.agent.id,
    deploymentVersion,
    alertId: alert.id,
    silenceId: silence.id,
    webhookId: webhook.id,
    memberUserId: member.id,
    invitationId: invited.invitation.id,
    invitationToken: invited.token,
    apiTokenId: apiToken.token.id,
    policy,
  };
}

/** Every row that belongs to the tenant, serialized: equal snapshots mean nothing of it changed. */
export async function tenantSnapshot(db: Database, organizationId: string): Promise<string> {
  const where = { organizationId };
  const p = testPrisma(db);
  const tables = await Promise.all([
    p.organization.findUnique({ where: { id: organizationId } }),
    p.membership.findMany({ where, orderBy: { userId: "asc" } }),
    p.host.findMany({ where, orderBy: { id: "asc" } }),
    p.service.findMany({ where, orderBy: { id: "asc" } }),
    p.serviceItem.findMany({ where, orderBy: { id: "asc" } }),
    p.thresholdPolicy.findMany({ where, orderBy: { id: "asc" } }),
    p.agent.findMany({ where, orderBy: { id: "asc" } }),
    p.deployment.findMany({ where, orderBy: { id: "asc" } }),
    p.alert.findMany({ where, orderBy: { id: "asc" } }),
    p.silence.findMany({ where, orderBy: { id: "asc" } }),
    p.webhook.findMany({ where, orderBy: { id: "asc" } }),
    p.invitation.findMany({ where, orderBy: { id: "asc" } }),
    p.apiToken.findMany({ where, orderBy: { id: "asc" } }),
    p.series.findMany({ where, orderBy: { id: "asc" } }),
    p.auditEntry.findMany({ where, orderBy: { id: "asc" } }),
    p.session.findMany({ where: { activeOrganizationId: organizationId }, orderBy: { id: "asc" } }),
  ]);
  return serialize(tables);
}

export function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "undefined";
}

/** The ids and names by which a tenant's rows could show up in someone else's answer. */
export function tenantMarkers(tenant: Tenant): string[] {
  return [
    tenant.organizationId,
    tenant.mark,
    tenant.seriesKey,
    tenant.hostId,
    tenant.serviceId,
    tenant.itemId,
    tenant.agentId,
    tenant.alertId,
    tenant.silenceId,
    tenant.webhookId,
    tenant.memberUserId,
    tenant.admin.userId,
    tenant.invitationId,
    tenant.apiTokenId,
  ];
}

export interface ProcedureInfo {
  path: string;
  type: "query" | "mutation" | "subscription";
}

/** Every procedure the application router holds, read from the router itself. */
export function allProcedures(): ProcedureInfo[] {
  // At run time `_def.procedures` is flat, keyed by dotted path; its declared type is the nested router shape.
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureInfo["type"] } }>;
  return Object.entries(procedures).map(([path, procedure]) => ({ path, type: procedure._def.type }));
}

/** Calls a procedure by its dotted path on a caller. */
export function callByPath(caller: Caller, path: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  if (typeof target !== "function") throw new Error(`${path} is not a procedure of the caller`);
  return (target as (input: unknown) => Promise<unknown>)(input);
}
