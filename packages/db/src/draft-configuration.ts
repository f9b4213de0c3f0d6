import { type Configuration, type Host, type Service, type ServiceItem, seriesKey } from "@tidemark/model";
import type { ThresholdPolicy } from "@tidemark/thresholds/policy";
import { type AuditActor, actorFields, recordAudit } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { createPolicy, periodToRow, policyFromRow, policyInclude } from "./policy-rows.ts";
import { forgetPrismaHistory, type PrismaTransaction } from "./prisma.ts";
import { analyzeAfterBulkWrite } from "./statistics.ts";

/**
 * Editing the configuration from the dashboard: hosts, services and items one at a time, and an
 * item's threshold policy. Every change is scoped to one organisation and written to the audit log
 * with its before and after.
 */

/** Who edits: a person or one of their API tokens (see AuditActor). */
export type Actor = AuditActor & { userId: string };

export type HostFields = Omit<Host, "services">;
export type ServiceFields = Omit<Service, "items">;
export type ItemFields = Omit<ServiceItem, "policy">;

export class ConfigNotFoundError extends Error {}
/** A name already taken, or a policy saved over a newer revision. */
export class ConfigConflictError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

type Tx = PrismaTransaction;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string }; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } };
  return (
    e?.code === "P2002" || e?.code === "23505" || e?.cause?.code === "23505" || e?.meta?.driverAdapterError?.cause?.originalCode === "23505"
  );
}

async function uniqueName<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConfigConflictError(`a ${what} with this name already exists`, "name");
    throw error;
  }
}

/** Records a change; called with the change's transaction (`tx`), so that both are written or neither. */
function audit(tx: Tx, actor: Actor, action: string, targetType: string, targetId: string, before: unknown, after: unknown) {
  return recordAudit(tx, {
    ...actorFields(actor),
    action,
    targetType,
    targetId,
    before,
    after,
  });
}

/**
 * Keeps the items' series keys (and their stored history) in step after a host, service or item
 * rename. History whose new key is already taken by another series stays under the old key.
 */
async function rekeySeries(tx: Tx, organizationId: string, where: { hostId?: string; serviceId?: string; itemId?: string }) {
  const filter = where.itemId ? `i.id = $2` : where.serviceId ? `i.service_id = $2` : `s.host_id = $2`;
  const id = where.itemId ?? where.serviceId ?? where.hostId;
  const rows = await tx.$queryRawUnsafe<{ id: string; old_key: string; host: string; service: string; item: string }[]>(
    `SELECT i.id, i.series_key AS old_key, h.name AS host, s.name AS service, i.name AS item
     FROM service_items i JOIN services s ON s.id = i.service_id JOIN hosts h ON h.id = s.host_id
     WHERE i.organization_id = $1::uuid AND ${filter.replace("$2", "$2::uuid")}`,
    organizationId,
    id,
  );
  for (const r of rows) {
    const key = seriesKey(r.host, r.service, r.item);
    if (key === r.old_key) continue;
    await tx.serviceItem.update({ where: { id: r.id }, data: { seriesKey: key } });
    await tx.$executeRawUnsafe(
      `UPDATE series SET key = $3 WHERE organization_id = $1::uuid AND key = $2
       AND NOT EXISTS (SELECT 1 FROM series o WHERE o.organization_id = $1::uuid AND o.key = $3)`,
      organizationId,
      r.old_key,
      key,
    );
  }
}

// ---------------------------------------------------------------- lists (keyset pagination)

export interface Page<T> {
  rows: T[];
  next: string | null;
}

export const likePattern = (search: string | undefined) => (search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

export interface HostRow {
  id: string;
  name: string;
  alias: string | null;
  description: string;
  services: number;
  items: number;
}

export async function listHosts(
  db: Database,
  organizationId: string,
  opts: { search?: string; after?: string | null; limit: number },
): Promise<Page<HostRow>> {
  const { rows } = await poolOf(db).query<HostRow>(
    `SELECT h.id, h.name, h.alias, h.description,
            (SELECT count(*)::int FROM services s WHERE s.host_id = h.id) AS services,
            (SELECT count(*)::int FROM service_items i JOIN services s ON s.id = i.service_id WHERE s.host_id = h.id) AS items
     FROM hosts h
     WHERE h.organization_id = $1 AND ($2::text IS NULL OR h.name ILIKE $2 OR h.alias ILIKE $2) AND ($3::text IS NULL OR h.name > $3)
     ORDER BY h.name LIMIT $4`,
    [organizationId, likePattern(opts.search), opts.after ?? null, opts.limit + 1],
  );
  const page = rows.slice(0, opts.limit);
  return { rows: page, next: rows.length > opts.limit ? (page.at(-1)?.name ?? null) : null };
}

export interface ServiceRow {
  id: string;
  hostId: string;
  host: string;
  name: string;
  description: string;
  schedules: string[];
  url: string;
  sendServiceData: boolean;
  items: number;
  agentId: string | null;
  agent: string | null;
  /** An agent-run service with no active agent: it runs nowhere. */
  runsNowhere: boolean;
}

/** A service matches a search on `host-service` or its url (the services list and bulk assignment agree). */
export const SERVICE_SEARCH = (param: string) => `((h.name || '-' || s.name) ILIKE ${param} OR s.url ILIKE ${param})`;
/** An agent-run (not bischeck://) service without an active agent. */
export const RUNS_NOWHERE = `(s.url NOT LIKE 'bischeck://%' AND (s.agent_id IS NULL OR EXISTS (SELECT 1 FROM agents ag WHERE ag.id = s.agent_id AND ag.revoked_at IS NOT NULL)))`;

export async function listServices(
  db: Database,
  organizationId: string,
  opts: { hostId?: string; search?: string; after?: string | null; limit: number },
): Promise<Page<ServiceRow>> {
  const { rows } = await poolOf(db).query<ServiceRow & { sort_key: string }>(
    `SELECT s.id, s.host_id AS "hostId", h.name AS host, s.name, s.description, s.schedules, s.url, s.send_service_data AS "sendServiceData",
            (SELECT count(*)::int FROM service_items i WHERE i.service_id = s.id) AS items, h.name || '\u0001' || s.name AS sort_key,
            s.agent_id AS "agentId", (SELECT ag.name FROM agents ag WHERE ag.id = s.agent_id) AS agent, ${RUNS_NOWHERE} AS "runsNowhere"
     FROM services s JOIN hosts h ON h.id = s.host_id
     WHERE s.organization_id = $1 AND ($2::uuid IS NULL OR s.host_id = $2)
       AND ($3::text IS NULL OR ${SERVICE_SEARCH("$3")})
       AND ($4::text IS NULL OR h.name || '\u0001' || s.name > $4)
     ORDER BY h.name || '\u0001' || s.name LIMIT $5`,
    [organizationId, opts.hostId ?? null, likePattern(opts.search), opts.after ?? null, opts.limit + 1],
  );
  const page = rows.slice(0, opts.limit);
  return {
    rows: page.map(({ sort_key: _, ...row }) => row),
    next: rows.length > opts.limit ? (page.at(-1)?.sort_key ?? null) : null,
  };
}

export interface ItemRow {
  id: string;
  serviceId: string;
  hostId: string;
  host: string;
  service: string;
  name: string;
  seriesKey: string;
  execStatement: string;
  runner: string;
  policyId: string | null;
  policyName: string | null;
  /** Its service is agent-run but no active agent runs it. */
  runsNowhere: boolean;
}

export interface ItemListOptions {
  search?: string;
  hostId?: string;
  serviceId?: string;
  /** `with`: only items with a threshold policy; `without`: only those without. */
  policy?: "with" | "without";
  /** Connection scheme of the service: shell, bischeck, http, https, postgres. */
  runner?: string;
  sort: "asc" | "desc";
  after?: string | null;
  limit: number;
}

/** Keyset-paginated on the series key in either direction, so page N costs what page 1 does. */
export async function listConfigItems(db: Database, organizationId: string, opts: ItemListOptions): Promise<Page<ItemRow>> {
  const desc = opts.sort === "desc";
  const { rows } = await poolOf(db).query<ItemRow>(
    `SELECT i.id, i.service_id AS "serviceId", s.host_id AS "hostId", h.name AS host, s.name AS service, i.name, i.series_key AS "seriesKey",
            i.exec_statement AS "execStatement", split_part(s.url, '://', 1) AS runner, i.policy_id AS "policyId", p.name AS "policyName",
            ${RUNS_NOWHERE} AS "runsNowhere"
     FROM service_items i JOIN services s ON s.id = i.service_id JOIN hosts h ON h.id = s.host_id
     LEFT JOIN threshold_policies p ON p.id = i.policy_id
     WHERE i.organization_id = $1
       AND ($2::text IS NULL OR i.series_key ILIKE $2 OR i.exec_statement ILIKE $2)
       AND ($3::uuid IS NULL OR s.host_id = $3)
       AND ($4::uuid IS NULL OR i.service_id = $4)
       AND ($5::text IS NULL OR ($5 = 'with') = (i.policy_id IS NOT NULL))
       AND ($6::text IS NULL OR split_part(s.url, '://', 1) = $6)
       AND ($7::text IS NULL OR i.series_key ${desc ? "<" : ">"} $7)
     ORDER BY i.series_key ${desc ? "DESC" : "ASC"} LIMIT $8`,
    [
      organizationId,
      likePattern(opts.search),
      opts.hostId ?? null,
      opts.serviceId ?? null,
      opts.policy ?? null,
      opts.runner ?? null,
      opts.after ?? null,
      opts.limit + 1,
    ],
  );
  const page = rows.slice(0, opts.limit);
  return { rows: page, next: rows.length > opts.limit ? (page.at(-1)?.seriesKey ?? null) : null };
}

// ---------------------------------------------------------------- hosts

export async function getHost(db: Database, organizationId: string, id: string) {
  const host = await prismaOf(db).host.findFirst({ where: { id, organizationId } });
  if (!host) throw new ConfigNotFoundError("no such host");
  return host;
}

const hostData = (f: HostFields) => ({ name: f.name, alias: f.alias, description: f.description });

export async function createHost(db: Database, actor: Actor, fields: HostFields) {
  return uniqueName("host", () =>
    prismaOf(db).$transaction(async (tx) => {
      const host = await tx.host.create({ data: { organizationId: actor.organizationId, ...hostData(fields) } });
      await audit(tx, actor, "host.create", "host", host.id, null, hostData(fields));
      return host;
    }),
  );
}

export async function updateHost(db: Database, actor: Actor, id: string, fields: HostFields) {
  const before = await getHost(db, actor.organizationId, id);
  const host = await uniqueName("host", () =>
    prismaOf(db).$transaction(async (tx) => {
      const updated = await tx.host.update({ where: { id }, data: hostData(fields) });
      if (before.name !== fields.name) await rekeySeries(tx, actor.organizationId, { hostId: id });
      await audit(tx, actor, "host.update", "host", id, hostData(before), hostData(fields));
      return updated;
    }),
  );
  return host;
}

export async function deleteHost(db: Database, actor: Actor, id: string) {
  const before = await getHost(db, actor.organizationId, id);
  await prismaOf(db).$transaction(async (tx) => {
    await tx.host.delete({ where: { id } });
    await audit(tx, actor, "host.delete", "host", id, hostData(before), null);
  });
}

/** Copies a host with its services, items and their own (non-template) policies under a new name. */
export async function cloneHost(db: Database, actor: Actor, id: string, name: string) {
  const source = await prismaOf(db).host.findFirst({
    where: { id, organizationId: actor.organizationId },
    include: { services: { include: { items: { include: { policy: { include: policyInclude } } } } } },
  });
  if (!source) throw new ConfigNotFoundError("no such host");
  const host = await uniqueName("host", () =>
    prismaOf(db).$transaction(async (tx) => {
      const created = await tx.host.create({
        data: { organizationId: actor.organizationId, name, alias: null, description: source.description },
      });
      for (const service of source.services) await copyService(tx, actor.organizationId, service, created.id, name, service.name);
      await audit(tx, actor, "host.clone", "host", created.id, { from: source.name }, { name });
      return created;
    }),
  );
  return host;
}

// ---------------------------------------------------------------- services

type ServiceWithItems = Awaited<ReturnType<typeof loadService>>;

async function loadService(db: Database, organizationId: string, id: string) {
  const service = await prismaOf(db).service.findFirst({
    where: { id, organizationId },
    include: { host: true, items: { include: { policy: { include: policyInclude } } } },
  });
  if (!service) throw new ConfigNotFoundError("no such service");
  return service;
}

export const getService = loadService;

const serviceData = (f: ServiceFields) => ({
  name: f.name,
  description: f.description,
  schedules: f.schedules,
  url: f.url,
  sendServiceData: f.sendServiceData,
});

/** More of a service's change, inside its transaction (e.g. giving it to an agent: see assignmentStep). */
export type ServiceStep = (tx: Tx, serviceId: string) => Promise<unknown>;

export async function createService(db: Database, actor: Actor, hostId: string, fields: ServiceFields, andThen?: ServiceStep) {
  await getHost(db, actor.organizationId, hostId);
  return uniqueName("service", () =>
    prismaOf(db).$transaction(async (tx) => {
      const service = await tx.service.create({ data: { organizationId: actor.organizationId, hostId, ...serviceData(fields) } });
      await audit(tx, actor, "service.create", "service", service.id, null, serviceData(fields));
      await andThen?.(tx, service.id);
      return service;
    }),
  );
}

export async function updateService(db: Database, actor: Actor, id: string, fields: ServiceFields, andThen?: ServiceStep) {
  const before = await loadService(db, actor.organizationId, id);
  const service = await uniqueName("service", () =>
    prismaOf(db).$transaction(async (tx) => {
      const updated = await tx.service.update({ where: { id }, data: serviceData(fields) });
      if (before.name !== fields.name) await rekeySeries(tx, actor.organizationId, { serviceId: id });
      await audit(tx, actor, "service.update", "service", id, serviceData(before), serviceData(fields));
      await andThen?.(tx, id);
      return updated;
    }),
  );
  return service;
}

export async function deleteService(db: Database, actor: Actor, id: string) {
  const before = await loadService(db, actor.organizationId, id);
  await prismaOf(db).$transaction(async (tx) => {
    await tx.service.delete({ where: { id } });
    await audit(tx, actor, "service.delete", "service", id, serviceData(before), null);
  });
}

async function copyPolicy(tx: Tx, organizationId: string, item: ServiceWithItems["items"][number]): Promise<string | null> {
  if (!item.policy) return null;
  // Templates stay shared; an item's own policy is copied so the clone can be tuned on its own.
  if (item.policy.isTemplate) return item.policy.id;
  return createPolicy(tx, organizationId, policyFromRow(item.policy));
}

async function copyService(
  tx: Tx,
  organizationId: string,
  service: ServiceWithItems | Omit<ServiceWithItems, "host">,
  hostId: string,
  hostName: string,
  name: string,
) {
  const created = await tx.service.create({
    data: { organizationId, hostId, agentId: service.agentId, ...serviceData({ ...service, name }) },
  });
  for (const item of service.items) {
    await tx.serviceItem.create({
      data: {
        organizationId,
        serviceId: created.id,
        ...itemData(item),
        policyId: await copyPolicy(tx, organizationId, item),
        seriesKey: seriesKey(hostName, name, item.name),
      },
    });
  }
  return created;
}

export async function cloneService(db: Database, actor: Actor, id: string, name: string, hostId?: string) {
  const source = await loadService(db, actor.organizationId, id);
  const target = hostId ? await getHost(db, actor.organizationId, hostId) : source.host;
  return uniqueName("service", () =>
    prismaOf(db).$transaction(async (tx) => {
      const service = await copyService(tx, actor.organizationId, source, target.id, target.name, name);
      await audit(
        tx,
        actor,
        "service.clone",
        "service",
        service.id,
        { from: `${source.host.name}-${source.name}` },
        { host: target.name, name },
      );
      return service;
    }),
  );
}

// ---------------------------------------------------------------- items

const itemData = (f: ItemFields) => ({
  name: f.name,
  description: f.description,
  execStatement: f.execStatement,
  thresholdClass: f.thresholdClass,
  serviceItemClass: f.serviceItemClass,
  cacheMaxCount: f.cacheMaxCount,
});

export interface ItemDetail {
  id: string;
  hostId: string;
  serviceId: string;
  host: string;
  service: string;
  serviceUrl: string;
  fields: ItemFields;
  seriesKey: string;
  seriesId: number | null;
  policy: ThresholdPolicy | null;
  policyId: string | null;
  policyRevision: number | null;
  policyName: string | null;
  /** Other items sharing this policy (a template): saving changes them too. */
  sharedWith: number;
}

export async function getItem(db: Database, organizationId: string, id: string): Promise<ItemDetail> {
  const item = await prismaOf(db).serviceItem.findFirst({
    where: { id, organizationId },
    include: { service: { include: { host: true } }, policy: { include: { ...policyInclude, _count: { select: { items: true } } } } },
  });
  if (!item) throw new ConfigNotFoundError("no such service item");
  const series = await prismaOf(db).series.findUnique({
    where: { organizationId_key: { organizationId, key: item.seriesKey } },
    select: { id: true },
  });
  return {
    id: item.id,
    hostId: item.service.hostId,
    serviceId: item.serviceId,
    host: item.service.host.name,
    service: item.service.name,
    serviceUrl: item.service.url,
    fields: itemData(item),
    seriesKey: item.seriesKey,
    seriesId: series ? Number(series.id) : null,
    policy: item.policy ? policyFromRow(item.policy) : null,
    policyId: item.policyId,
    policyRevision: item.policy?.revision ?? null,
    policyName: item.policy?.name ?? null,
    sharedWith: item.policy ? item.policy._count.items - 1 : 0,
  };
}

export async function createItem(db: Database, actor: Actor, serviceId: string, fields: ItemFields, policy: ThresholdPolicy | null) {
  const service = await loadService(db, actor.organizationId, serviceId);
  const item = await uniqueName("service item", () =>
    prismaOf(db).$transaction(async (tx) => {
      const policyId = policy ? await createPolicy(tx, actor.organizationId, policy) : null;
      const created = await tx.serviceItem.create({
        data: {
          organizationId: actor.organizationId,
          serviceId,
          ...itemData(fields),
          policyId,
          seriesKey: seriesKey(service.host.name, service.name, fields.name),
        },
      });
      await audit(tx, actor, "item.create", "service_item", created.id, null, { ...itemData(fields), policy });
      return created;
    }),
  );
  return item;
}

export async function updateItem(db: Database, actor: Actor, id: string, fields: ItemFields) {
  const before = await getItem(db, actor.organizationId, id);
  const item = await uniqueName("service item", () =>
    prismaOf(db).$transaction(async (tx) => {
      const updated = await tx.serviceItem.update({ where: { id }, data: itemData(fields) });
      if (before.fields.name !== fields.name) await rekeySeries(tx, actor.organizationId, { itemId: id });
      await audit(tx, actor, "item.update", "service_item", id, before.fields, itemData(fields));
      return updated;
    }),
  );
  return item;
}

export async function deleteItem(db: Database, actor: Actor, id: string) {
  const before = await getItem(db, actor.organizationId, id);
  await prismaOf(db).$transaction(async (tx) => {
    await tx.serviceItem.delete({ where: { id } });
    // An item's own policy goes with it; templates stay for the other items.
    if (before.policyId && before.sharedWith === 0 && before.policyName === null)
      await tx.thresholdPolicy.delete({ where: { id: before.policyId } });
    await audit(tx, actor, "item.delete", "service_item", id, { ...before.fields, policy: before.policy }, null);
  });
}

export async function cloneItem(db: Database, actor: Actor, id: string, name: string) {
  const source = await getItem(db, actor.organizationId, id);
  const sourceRow = await prismaOf(db).serviceItem.findUniqueOrThrow({ where: { id }, include: { policy: { include: policyInclude } } });
  const item = await uniqueName("service item", () =>
    prismaOf(db).$transaction(async (tx) => {
      const created = await tx.serviceItem.create({
        data: {
          organizationId: actor.organizationId,
          serviceId: source.serviceId,
          ...itemData({ ...source.fields, name }),
          policyId: await copyPolicy(tx, actor.organizationId, sourceRow),
          seriesKey: seriesKey(source.host, source.service, name),
        },
      });
      await audit(tx, actor, "item.clone", "service_item", created.id, { from: source.seriesKey }, { name });
      return created;
    }),
  );
  return item;
}

// ---------------------------------------------------------------- threshold policies

async function replaceHolidays(tx: Tx, organizationId: string, policyId: string, calendarId: string | null, policy: ThresholdPolicy) {
  const days = policy.holidays.flatMap((h) => h.days.map((monthDay) => ({ year: h.year, monthDay })));
  const sharedCalendar = calendarId !== null && (await tx.thresholdPolicy.count({ where: { holidayCalendarId: calendarId } })) > 1;
  if (calendarId !== null && !sharedCalendar) {
    await tx.holidayDay.deleteMany({ where: { calendarId } });
    if (days.length > 0) await tx.holidayDay.createMany({ data: days.map((d) => ({ organizationId, calendarId, ...d })) });
    return;
  }
  if (days.length === 0) {
    await tx.thresholdPolicy.update({ where: { id: policyId }, data: { holidayCalendarId: null } });
    return;
  }
  const calendar = await tx.holidayCalendar.create({
    data: { organizationId, name: `holidays-${crypto.randomUUID().slice(0, 8)}`, days: { create: days } },
  });
  await tx.thresholdPolicy.update({ where: { id: policyId }, data: { holidayCalendarId: calendar.id } });
}

/**
 * Saves an item's threshold policy. `revision` is the one the editor loaded: saving over a newer
 * revision (someone else saved meanwhile) is refused instead of silently overwriting it.
 */
export async function saveItemPolicy(db: Database, actor: Actor, itemId: string, policy: ThresholdPolicy, revision: number | null) {
  const before = await getItem(db, actor.organizationId, itemId);
  const write = async (tx: Tx) => {
    if (before.policyId === null) {
      const policyId = await createPolicy(tx, actor.organizationId, policy);
      await tx.serviceItem.update({ where: { id: itemId }, data: { policyId } });
      return { policyId, revision: 1 };
    }
    const bumped = await tx.thresholdPolicy.updateMany({
      where: { id: before.policyId, organizationId: actor.organizationId, ...(revision === null ? {} : { revision }) },
      data: { revision: { increment: 1 }, nullState: policy.nullState, maxSoft: policy.maxSoft, timeZone: policy.timeZone },
    });
    if (bumped.count === 0)
      throw new ConfigConflictError("this threshold was changed by someone else since you opened it: reload to see their version");
    const row = await tx.thresholdPolicy.findUniqueOrThrow({ where: { id: before.policyId } });
    await tx.thresholdPeriod.deleteMany({ where: { policyId: row.id } });
    await tx.thresholdPeriod.createMany({
      data: policy.periods.map((p, i) => ({ organizationId: actor.organizationId, policyId: row.id, ...periodToRow(p, i) })),
    });
    await replaceHolidays(tx, actor.organizationId, row.id, row.holidayCalendarId, policy);
    return { policyId: row.id, revision: row.revision };
  };
  return prismaOf(db).$transaction(async (tx) => {
    const saved = await write(tx);
    await audit(tx, actor, "policy.save", "threshold_policy", saved.policyId, before.policy, policy);
    return saved;
  });
}

/** Names of the organisation's series, for autocomplete in the expression editor. */
export async function seriesKeys(db: Database, organizationId: string, prefix: string, limit: number): Promise<string[]> {
  const { rows } = await poolOf(db).query<{ series_key: string }>(
    `SELECT series_key FROM service_items WHERE organization_id = $1 AND series_key LIKE $2 ORDER BY series_key LIMIT $3`,
    [organizationId, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
  );
  return rows.map((r) => r.series_key);
}

/**
 * Bischeck's servicedeftemplate: one named policy shared by many items. The items' own policies
 * they had before are removed; other templates they used stay.
 */
export async function applyTemplate(db: Database, actor: Actor, name: string, policy: ThresholdPolicy, itemIds: readonly string[]) {
  const items = await prismaOf(db).serviceItem.findMany({
    where: { id: { in: [...itemIds] }, organizationId: actor.organizationId },
    select: { id: true, policyId: true, policy: { select: { isTemplate: true } } },
  });
  if (items.length !== new Set(itemIds).size) throw new ConfigNotFoundError("some of these service items do not exist");
  const templateId = await uniqueName("template", () =>
    prismaOf(db).$transaction(async (tx) => {
      const id = await createPolicy(tx, actor.organizationId, policy, { name, isTemplate: true });
      await tx.serviceItem.updateMany({ where: { id: { in: items.map((i) => i.id) } }, data: { policyId: id } });
      const ownPolicies = items.flatMap((i) => (i.policyId && !i.policy?.isTemplate ? [i.policyId] : []));
      await tx.thresholdPolicy.deleteMany({ where: { id: { in: ownPolicies }, items: { none: {} } } });
      await audit(tx, actor, "policy.template", "threshold_policy", id, null, { name, policy, items: items.length });
      return id;
    }),
  ).finally(forgetPrismaHistory); // up to 10 000 ids in a statement: Prisma's debug history must not keep them
  return { templateId, items: items.length };
}

export interface MergeSummary {
  hosts: number;
  existingHosts: number;
  services: number;
  items: number;
  policies: number;
}

/**
 * Rows per bulk statement of an import. Prisma's query compiler runs in WebAssembly, whose memory
 * grows to hold the largest statement it compiled and never shrinks: at 2 000 rows a statement
 * the web server kept 26 MB more for good after a 10 000-host import, at 250 about 3 MB, and the
 * import took as long (docs/scaling.md, twenty-first round).
 */
const CHUNK = 250;

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/**
 * Adds a configuration (Bischeck's files, the demo seeder's, a test's or a bench's) to the
 * organisation in one transaction, audited: hosts that exist already receive the new services; a
 * service that exists already refuses the whole import, so nothing is half-imported and nothing
 * existing is changed. Rows go in with a handful of bulk statements whatever the size (10 000
 * items import in seconds).
 */
export async function mergeConfiguration(
  db: Database,
  actor: AuditActor,
  configuration: Configuration,
  /** The agent that runs each new service (import rules); null: none. */
  agentFor: (host: string, service: string) => string | null = () => null,
): Promise<MergeSummary> {
  const organizationId = actor.organizationId;
  const summary: MergeSummary = { hosts: 0, existingHosts: 0, services: 0, items: 0, policies: 0 };
  await prismaOf(db)
    .$transaction(
      async (tx) => {
        const hostIds = new Map<string, string>();
        for (const part of chunks([...new Set(configuration.hosts.map((h) => h.name))])) {
          const rows = await tx.host.findMany({ where: { organizationId, name: { in: part } }, select: { id: true, name: true } });
          for (const r of rows) hostIds.set(r.name, r.id);
        }
        const taken = new Set<string>();
        const hostNames = new Map([...hostIds].map(([name, id]) => [id, name]));
        for (const part of chunks([...hostIds.values()])) {
          const rows = await tx.service.findMany({ where: { hostId: { in: part } }, select: { hostId: true, name: true } });
          for (const r of rows) taken.add(`${hostNames.get(r.hostId)}-${r.name}`);
        }
        const newHosts: HostFields[] = [];
        const services: { host: string; service: Service }[] = [];
        for (const host of configuration.hosts) {
          if (hostIds.has(host.name) || newHosts.some((h) => h.name === host.name)) summary.existingHosts++;
          else {
            summary.hosts++;
            newHosts.push(host);
          }
          for (const service of host.services) {
            const key = `${host.name}-${service.name}`;
            if (taken.has(key)) throw new ConfigConflictError(`service ${key} exists already; nothing was imported`);
            taken.add(key);
            services.push({ host: host.name, service });
          }
        }
        for (const part of chunks(newHosts)) {
          const rows = await tx.host.createManyAndReturn({
            data: part.map((h) => ({ organizationId, ...hostData(h) })),
            select: { id: true, name: true },
          });
          for (const r of rows) hostIds.set(r.name, r.id);
        }
        const serviceIds = new Map<string, string>();
        for (const part of chunks(services)) {
          const rows = await tx.service.createManyAndReturn({
            data: part.map(({ host, service }) => ({
              organizationId,
              hostId: hostIds.get(host)!,
              agentId: agentFor(host, service.name),
              ...serviceData(service),
            })),
            select: { id: true, name: true, hostId: true },
          });
          for (const r of rows) serviceIds.set(`${r.hostId}/${r.name}`, r.id);
        }
        const items = services.flatMap(({ host, service }) => service.items.map((item) => ({ host, service, item })));
        const withPolicy = items.filter((i) => i.item.policy !== null);
        const policyIds = new Map<(typeof items)[number], string>();
        const plain = withPolicy.filter((i) => i.item.policy!.holidays.length === 0);
        for (const part of chunks(plain)) {
          const rows = await tx.thresholdPolicy.createManyAndReturn({
            data: part.map(({ item }) => ({
              organizationId,
              nullState: item.policy!.nullState,
              maxSoft: item.policy!.maxSoft,
              timeZone: item.policy!.timeZone,
            })),
            select: { id: true },
          });
          for (const [i, r] of rows.entries()) policyIds.set(part[i]!, r.id);
          await tx.thresholdPeriod.createMany({
            data: part.flatMap((entry, i) =>
              entry.item.policy!.periods.map((p, position) => ({ organizationId, policyId: rows[i]!.id, ...periodToRow(p, position) })),
            ),
          });
        }
        // Policies with holidays also get a calendar each: rare enough to create one by one.
        for (const entry of withPolicy.filter((i) => i.item.policy!.holidays.length > 0)) {
          policyIds.set(entry, await createPolicy(tx, organizationId, entry.item.policy!));
        }
        for (const part of chunks(items)) {
          await tx.serviceItem.createMany({
            data: part.map((entry) => ({
              organizationId,
              serviceId: serviceIds.get(`${hostIds.get(entry.host)}/${entry.service.name}`)!,
              ...itemData(entry.item),
              policyId: policyIds.get(entry) ?? null,
              seriesKey: seriesKey(entry.host, entry.service.name, entry.item.name),
            })),
          });
        }
        summary.services = services.length;
        summary.items = items.length;
        summary.policies = withPolicy.length;
        await recordAudit(tx, {
          ...actorFields(actor),
          action: "configuration.import",
          targetType: "configuration",
          targetId: organizationId,
          after: { ...summary, hosts: configuration.hosts.map((h) => h.name) },
        });
      },
      { timeout: 600_000, maxWait: 60_000 },
    )
    .finally(forgetPrismaHistory); // its statements carry thousands of rows each: Prisma's debug history must not keep them
  await analyzeAfterBulkWrite(db, summary.hosts + summary.services + summary.items, [
    "hosts",
    "services",
    "service_items",
    "threshold_policies",
    "threshold_periods",
  ]);
  return summary;
}

/** Which of `names` are hosts of the organisation already. */
export async function existingHosts(db: Database, organizationId: string, names: readonly string[]): Promise<{ name: string }[]> {
  return prismaOf(db).host.findMany({ where: { organizationId, name: { in: [...names] } }, select: { name: true } });
}

/** The ids of the organisation's hosts whose names start with one of `prefixes`. */
export async function hostIdsByPrefix(db: Database, organizationId: string, prefixes: readonly string[]): Promise<string[]> {
  const hosts = await prismaOf(db).host.findMany({
    where: { organizationId, OR: prefixes.map((prefix) => ({ name: { startsWith: prefix } })) },
    select: { id: true },
  });
  return hosts.map((h) => h.id);
}

/** Which of these host-service pairs exist already in the organisation (for the import preview). */
export async function existingServices(
  db: Database,
  organizationId: string,
  pairs: readonly { host: string; service: string }[],
): Promise<string[]> {
  if (pairs.length === 0) return [];
  const { rows } = await poolOf(db).query<{ key: string }>(
    `SELECT h.name || '-' || s.name AS key FROM services s JOIN hosts h ON h.id = s.host_id
     JOIN unnest($2::text[], $3::text[]) AS p(host, service) ON p.host = h.name AND p.service = s.name
     WHERE s.organization_id = $1 ORDER BY 1`,
    [organizationId, pairs.map((p) => p.host), pairs.map((p) => p.service)],
  );
  return rows.map((r) => r.key);
}
