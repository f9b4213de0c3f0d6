import { hashToken } from "@tidemark/auth";
import { type Database, poolOf } from "./database.ts";

export interface AuthenticatedAgent {
  agentId: string;
  organizationId: string;
  name: string;
}

/**
 * The agent a bearer token belongs to, or null (unknown or revoked). Marks it seen, at most once
 * every few seconds: an agent's concurrent batches would otherwise queue on its row's lock.
 */
export async function authenticateAgent(db: Database, bearer: string | null | undefined): Promise<AuthenticatedAgent | null> {
  if (!bearer?.startsWith("tm_agent_")) return null;
  const { rows } = await poolOf(db).query<{ id: string; organization_id: string; name: string }>(
    `WITH agent AS (
       SELECT id, organization_id, name, last_seen_at FROM agents WHERE token_hash = $1 AND revoked_at IS NULL
     ), seen AS (
       UPDATE agents SET last_seen_at = now()
       WHERE id IN (SELECT id FROM agent WHERE last_seen_at IS NULL OR last_seen_at < now() - interval '5 seconds')
     )
     SELECT id, organization_id, name FROM agent`,
    [hashToken(bearer)],
  );
  const row = rows[0];
  return row ? { agentId: row.id, organizationId: row.organization_id, name: row.name } : null;
}

/** `Authorization: Bearer <token>` → token. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1] ?? null;
}
