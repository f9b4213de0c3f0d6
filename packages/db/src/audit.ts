import type { PrismaClient } from "./prisma.ts";

/** `anonymous`: someone not signed in (a failed sign-in). */
export type ActorKind = "user" | "api-token" | "agent" | "system" | "anonymous";

/**
 * Who makes a change, as the audit log records it: a person (their session), one of their API
 * tokens (named: the token acts for its creator, but the log says it was the token), an agent, or
 * the system.
 */
export interface AuditActor {
  organizationId: string;
  /** The person, or the person an API token belongs to; null for agents and the system. */
  userId: string | null;
  kind?: ActorKind;
  /** The API token's or agent's name. */
  name?: string | null;
}

/** The audit fields of an actor. */
export function actorFields(actor: AuditActor) {
  return {
    organizationId: actor.organizationId,
    actorUserId: actor.userId,
    actorKind: actor.kind ?? "user",
    actorName: actor.name ?? null,
  };
}

export interface AuditInput {
  organizationId: string;
  actorUserId: string | null;
  actorKind: ActorKind;
  actorName?: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

const toJson = (v: unknown) => (v === undefined || v === null ? undefined : (JSON.parse(JSON.stringify(v)) as object));

/** Writes one entry; pass `{ prisma: tx }` to write it inside the transaction of the change it records. */
export async function recordAudit(db: { prisma: Pick<PrismaClient, "auditEntry"> }, entry: AuditInput): Promise<void> {
  await db.prisma.auditEntry.create({
    data: {
      organizationId: entry.organizationId,
      actorUserId: entry.actorUserId,
      actorKind: entry.actorKind,
      actorName: entry.actorName ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: toJson(entry.before),
      after: toJson(entry.after),
    },
  });
}
