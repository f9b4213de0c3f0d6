import { type Database, prismaOf } from "./database.ts";

/** Reading the audit log: newest first, filtered, paged by id (entries are append-only). */

export interface AuditFilter {
  actorUserId?: string | null;
  /** An exact action (`agent.create`) or a family ending in a dot (`agent.`). */
  action?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  from?: Date | null;
  to?: Date | null;
  /** Entries older than this id (the previous page's last id). */
  before?: bigint | null;
  limit: number;
}

export interface AuditRow {
  id: string;
  createdAt: Date;
  actorUserId: string | null;
  actorKind: string;
  /** As recorded: the API token's, agent's or system part's name, or the address of a failed sign-in. */
  actorName: string | null;
  /** The person (or the person an API token acts for), by their current name and email. */
  actorUserName: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

export async function listAuditEntries(db: Database, organizationId: string, filter: AuditFilter) {
  const action = filter.action ?? null;
  const rows = await prismaOf(db).auditEntry.findMany({
    where: {
      organizationId,
      ...(filter.actorUserId ? { actorUserId: filter.actorUserId } : {}),
      ...(action ? (action.endsWith(".") ? { action: { startsWith: action } } : { action }) : {}),
      ...(filter.targetType ? { targetType: filter.targetType } : {}),
      ...(filter.targetId ? { targetId: filter.targetId } : {}),
      ...(filter.from || filter.to
        ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } }
        : {}),
      ...(filter.before ? { id: { lt: filter.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  const page = rows.slice(0, filter.limit);
  const actorIds = [...new Set(page.map((r) => r.actorUserId).filter((id): id is string => id !== null))];
  const actors = await prismaOf(db).user.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true, email: true } });
  const byId = new Map(actors.map((a) => [a.id, a]));
  const entries: AuditRow[] = page.map((r) => ({
    id: r.id.toString(),
    createdAt: r.createdAt,
    actorUserId: r.actorUserId,
    actorKind: r.actorKind,
    actorName: r.actorName,
    actorUserName: r.actorUserId ? (byId.get(r.actorUserId)?.name ?? null) : null,
    actorEmail: r.actorUserId ? (byId.get(r.actorUserId)?.email ?? null) : null,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    before: r.before,
    after: r.after,
  }));
  return { entries, nextBefore: rows.length > filter.limit ? (page.at(-1)?.id.toString() ?? null) : null };
}

/** The values the filters can take in this organisation: who has acted, which actions and targets exist. */
export async function auditFacets(db: Database, organizationId: string) {
  const [actions, targetTypes, actorIds] = await Promise.all([
    prismaOf(db).auditEntry.findMany({
      where: { organizationId },
      distinct: ["action"],
      select: { action: true },
      orderBy: { action: "asc" },
    }),
    prismaOf(db).auditEntry.findMany({
      where: { organizationId },
      distinct: ["targetType"],
      select: { targetType: true },
      orderBy: { targetType: "asc" },
    }),
    prismaOf(db).auditEntry.findMany({
      where: { organizationId, actorUserId: { not: null } },
      distinct: ["actorUserId"],
      select: { actorUserId: true },
    }),
  ]);
  const actors = await prismaOf(db).user.findMany({
    where: { id: { in: actorIds.map((a) => a.actorUserId).filter((id): id is string => id !== null) } },
    select: { id: true, name: true, email: true },
    orderBy: { name: "asc" },
  });
  return { actions: actions.map((a) => a.action), targetTypes: targetTypes.map((t) => t.targetType), actors };
}
