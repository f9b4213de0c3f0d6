import type pg from "pg";
import { type Database, isDatabase, prismaOf } from "./database.ts";
import type { PrismaTransaction } from "./prisma.ts";

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

/** The system itself (the worker, the server's own housekeeping) acting in an organisation. */
export function systemActor(organizationId: string, name: string): AuditActor {
  return { organizationId, userId: null, kind: "system", name };
}

/** An agent acting in its organisation (e.g. reporting a configuration version applied). */
export function agentActor(organizationId: string, agentName: string): AuditActor {
  return { organizationId, userId: null, kind: "agent", name: agentName };
}

/** What one change writes to the audit log. */
export interface AuditChange {
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Given to a mutation: who makes the change and how its result reads in the log. The mutation
 * writes the entry inside its own transaction, so that a change never lands without its entry and
 * a failed change leaves none. `describe` returning null writes nothing (nothing changed).
 */
export interface Audited<T> {
  actor: AuditActor;
  describe: (result: T) => AuditChange | null;
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

/** Writes one entry; pass the transaction of the change it records to write it inside that. */
export async function recordAudit(target: Database | PrismaTransaction, entry: AuditInput): Promise<void> {
  const prisma = isDatabase(target) ? prismaOf(target) : target;
  await prisma.auditEntry.create({
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

/** Writes the entry `audit` makes of `result` through the transaction `tx` of the change (Prisma). */
export async function recordAudited<T>(tx: PrismaTransaction, audit: Audited<T> | undefined, result: T) {
  const change = audit?.describe(result);
  if (!audit || !change) return;
  await recordAudit(tx, { ...actorFields(audit.actor), ...change });
}

/** Writes the entry `audit` makes of `result` on `client`, inside the change's BEGIN … COMMIT (plain SQL). */
export async function recordAuditedSql<T>(client: Pick<pg.PoolClient, "query">, audit: Audited<T> | undefined, result: T) {
  const change = audit?.describe(result);
  if (!audit || !change) return;
  const actor = actorFields(audit.actor);
  await client.query(
    `INSERT INTO audit_log (organization_id, actor_user_id, actor_kind, actor_name, action, target_type, target_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      actor.organizationId,
      actor.actorUserId,
      actor.actorKind,
      actor.actorName,
      change.action,
      change.targetType,
      change.targetId,
      toJsonText(change.before),
      toJsonText(change.after),
    ],
  );
}

const toJsonText = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
