import type { Database } from "./database.ts";

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
  return db.prisma.user.findUnique({ where: { email: email.toLowerCase() } });
}

export async function createSession(
  db: Database,
  input: { tokenHash: string; userId: string; organizationId: string; expiresAt: Date },
) {
  return db.prisma.session.create({
    data: {
      tokenHash: input.tokenHash,
      userId: input.userId,
      activeOrganizationId: input.organizationId,
      expiresAt: input.expiresAt,
    },
  });
}

/** The session's user and its role in the active organisation, or null when expired or gone. */
export async function findSession(db: Database, tokenHash: string, now = new Date()): Promise<SessionView | null> {
  const session = await db.prisma.session.findUnique({
    where: { tokenHash },
    include: { user: true, activeOrganization: true },
  });
  if (!session || session.expiresAt <= now) return null;
  const membership = await db.prisma.membership.findUnique({
    where: { userId_organizationId: { userId: session.userId, organizationId: session.activeOrganizationId } },
  });
  if (!membership) return null;
  return {
    sessionId: session.id,
    userId: session.userId,
    email: session.user.email,
    name: session.user.name,
    organizationId: session.activeOrganizationId,
    organizationName: session.activeOrganization.name,
    organizationSlug: session.activeOrganization.slug,
    role: membership.role,
  };
}

export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.prisma.session.deleteMany({ where: { tokenHash } });
}

export async function firstMembership(db: Database, userId: string) {
  return db.prisma.membership.findFirst({ where: { userId }, orderBy: { createdAt: "asc" } });
}

export async function listMemberships(db: Database, userId: string) {
  return db.prisma.membership.findMany({
    where: { userId },
    include: { organization: true },
    orderBy: { createdAt: "asc" },
  });
}
