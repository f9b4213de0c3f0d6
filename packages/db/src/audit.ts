import type { Database } from "./database.ts";

export interface AuditInput {
  organizationId: string;
  actorUserId: string | null;
  actorKind: "user" | "api-token" | "agent" | "system";
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

const toJson = (v: unknown) => (v === undefined || v === null ? undefined : (JSON.parse(JSON.stringify(v)) as object));

export async function recordAudit(db: Pick<Database, "prisma">, entry: AuditInput): Promise<void> {
  await db.prisma.auditEntry.create({
    data: {
      organizationId: entry.organizationId,
      actorUserId: entry.actorUserId,
      actorKind: entry.actorKind,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: toJson(entry.before),
      after: toJson(entry.after),
    },
  });
}
