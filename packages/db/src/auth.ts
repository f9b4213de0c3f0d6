import { type Database, poolOf, prismaOf } from "./database.ts";

/** Sign-in lookups. Secrets arrive here already hashed; this layer never sees a password. */

export type Role = "viewer" | "editor" | "admin";

export interface SessionView {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  organizationId: string;
  organizationName: string;
  organizationSlug: string;
  role: Role;
}

export async function findUserByEmail(db: Database, email: string) {
  return prismaOf(db).user.findUnique({ where: { email: email.toLowerCase() } });
}

export async function createSession(db: Database, input: { tokenHash: string; userId: string; organizationId: string; expiresAt: Date }) {
  return prismaOf(db).session.create({
    data: {
      tokenHash: input.tokenHash,
      userId: input.userId,
      activeOrganizationId: input.organizationId,
      expiresAt: input.expiresAt,
    },
  });
}

/**
 * The session's user and its role in the active organisation, or null when expired, gone, or no
 * longer a member. Every signed-in request runs it, so it is one statement (session, user,
 * organisation and membership joined) rather than Prisma's two round trips; nothing is cached,
 * so signing out, a removed membership or a changed role takes effect on the next request.
 * Unnamed (not a prepared statement): the embedded server shares named statements between
 * connections, and a second connection preparing the same name fails.
 */
export async function findSession(db: Database, tokenHash: string, now = new Date()): Promise<SessionView | null> {
  const { rows } = await poolOf(db).query<SessionView>({
    text: `SELECT s.id AS "sessionId", s.user_id AS "userId", u.email, u.name,
                  s.active_organization_id AS "organizationId", o.name AS "organizationName", o.slug AS "organizationSlug",
                  m.role::text AS role
           FROM sessions s
           JOIN users u ON u.id = s.user_id
           JOIN organizations o ON o.id = s.active_organization_id
           JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = s.active_organization_id
           WHERE s.token_hash = $1 AND s.expires_at > $2`,
    values: [tokenHash, now],
  });
  return rows[0] ?? null;
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await prismaOf(db).session.deleteMany({ where: { tokenHash } });
}

export async function firstMembership(db: Database, userId: string) {
  return prismaOf(db).membership.findFirst({ where: { userId }, orderBy: { createdAt: "asc" } });
}

export async function listMemberships(db: Database, userId: string) {
  return prismaOf(db).membership.findMany({
    where: { userId },
    include: { organization: true },
    orderBy: { createdAt: "asc" },
  });
}
