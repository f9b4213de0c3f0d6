import { type Audited, recordAudited } from "./audit.ts";
import type { Role, SessionView } from "./auth.ts";
import { type Database, prismaOf } from "./database.ts";

/**
 * API tokens: bearer secrets for scripts, scoped to one organisation and a role. Only the hash and
 * a recognisable prefix are stored. A token acts for the member who created it and never with
 * more than that member's current role: removing or demoting the member reins in their tokens.
 */

export interface ApiTokenView {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const view = (t: ApiTokenView): ApiTokenView => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  role: t.role,
  createdBy: t.createdBy,
  createdAt: t.createdAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
});

const API_TOKEN_SESSION = "api-token:";

/** Whether a session view stands for an API token rather than a browser session. */
export function isApiTokenSession(sessionId: string): boolean {
  return sessionId.startsWith(API_TOKEN_SESSION);
}

export async function createApiToken(
  db: Database,
  input: { organizationId: string; name: string; role: Role; prefix: string; tokenHash: string; createdBy: string },
  audit?: Audited<ApiTokenView>,
): Promise<ApiTokenView> {
  return prismaOf(db).$transaction(async (tx) => {
    const created = view(await tx.apiToken.create({ data: input }));
    await recordAudited(tx, audit, created);
    return created;
  });
}

export async function listApiTokens(db: Database, organizationId: string): Promise<ApiTokenView[]> {
  const rows = await prismaOf(db).apiToken.findMany({
    where: { organizationId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    take: 500,
  });
  return rows.map(view);
}

/** Before and after, or null when no active token has this id in the organisation. */
export async function revokeApiToken(db: Database, organizationId: string, id: string, now = new Date(), audit?: Audited<ApiTokenView>) {
  return prismaOf(db).$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { id, organizationId, revokedAt: null }, data: { revokedAt: now } });
    if (count !== 1) return null;
    const revoked = view(await tx.apiToken.findUniqueOrThrow({ where: { id } }));
    await recordAudited(tx, audit, revoked);
    return revoked;
  });
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };
/** Last-used times are written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The session an `Authorization: Bearer tm_api_…` request runs with, or null when the token is unknown or revoked. */
export async function authenticateApiToken(db: Database, tokenHash: string, now = new Date()): Promise<SessionView | null> {
  const token = await prismaOf(db).apiToken.findUnique({ where: { tokenHash }, include: { organization: true } });
  if (!token || token.revokedAt || !token.createdBy) return null;
  const creator = await prismaOf(db).membership.findUnique({
    where: { userId_organizationId: { userId: token.createdBy, organizationId: token.organizationId } },
    include: { user: true },
  });
  if (!creator) return null;
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prismaOf(db).apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  }
  return {
    sessionId: `${API_TOKEN_SESSION}${token.id}`,
    userId: creator.userId,
    email: creator.user.email,
    name: `${token.name} (API token of ${creator.user.name})`,
    organizationId: token.organizationId,
    organizationName: token.organization.name,
    organizationSlug: token.organization.slug,
    role: RANK[token.role] <= RANK[creator.role] ? token.role : creator.role,
  };
}
