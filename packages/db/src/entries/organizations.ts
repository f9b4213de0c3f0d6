/** `@tidemark/db/organizations`: organisations, people, sessions, invitations, API tokens, rate limits and the audit log. */
export * from "../api-tokens.ts";
export {
  type ActorKind,
  type AuditActor,
  type AuditChange,
  type Audited,
  type AuditInput,
  actorFields,
  agentActor,
  recordAudit,
  systemActor,
} from "../audit.ts";
export * from "../audit-queries.ts";
export * from "../auth.ts";
export * from "../invitations.ts";
export * from "../organizations.ts";
export * from "../rate-limits.ts";
