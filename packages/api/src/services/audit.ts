import type { AuditActor, AuditChange, Audited } from "@tidemark/db/organizations";

/**
 * The caller's change as the audit log records it (a person's session told from one of their API
 * tokens); the data layer writes it inside the change's own transaction.
 */
export function auditedBy<T>(ctx: { org: { actor: AuditActor } }, describe: (result: T) => AuditChange): Audited<T> {
  return { actor: ctx.org.actor, describe };
}
