import { hashToken } from "@tidemark/auth";
import type { Database } from "./database.ts";

export interface AuthenticatedAgent {
  agentId: string;
  organizationId: string;
  name: string;
}

/** The agent a bearer token belongs to, or null (unknown or revoked). Marks it seen. */
export async function authenticateAgent(db: Database, bearer: string | null | undefined): Promise<AuthenticatedAgent | null> {
  if (!bearer?.startsWith("tm_agent_")) return null;
  const { rows } = await db.pool.query<{ id: string; organization_id: string; name: string }>(
    `UPDATE agents SET last_seen_at = now() WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id, organization_id, name`,
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
