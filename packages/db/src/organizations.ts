import { randomBytes } from "node:crypto";
import { type Audited, recordAudit, recordAudited } from "./audit.ts";
import type { Role } from "./auth.ts";
import { type Database, prismaOf } from "./database.ts";
import type { PrismaTransaction } from "./prisma.ts";

/** Organisations and their members. Every function that reads or changes members takes the organisation id. */

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`an account with ${email} already exists: sign in instead`);
  }
}

export class LastAdminError extends Error {
  constructor() {
    super("an organisation needs at least one admin: make someone else admin first");
  }
}

/** A URL-safe slug from the name, with a random tail so that two "Acme"s never collide. */
export function organizationSlug(name: string): string {
  const base = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "org"}-${randomBytes(3).toString("hex")}`;
}

type Tx = PrismaTransaction;

/** A new organisation with `userId` as its admin; its audit log starts with its creation, in the same transaction. */
export async function createOrganization(db: Database, input: { name: string; userId: string }) {
  return prismaOf(db).$transaction((tx) => createOrganizationIn(tx, input.name, input.userId));
}

/** The organisation and, in the same transaction `tx`, its first audit entry (written in the organisation itself). */
async function createOrganizationIn(tx: Tx, name: string, userId: string) {
  const organization = await tx.organization.create({
    data: { name, slug: organizationSlug(name), memberships: { create: { userId, role: "admin" } } },
  });
  await recordAudit(tx, {
    organizationId: organization.id,
    actorUserId: userId,
    actorKind: "user",
    action: "organization.create",
    targetType: "organization",
    targetId: organization.id,
    after: { name: organization.name, slug: organization.slug },
  });
  return organization;
}

/** A new account, optionally with a new organisation it administers (sign-up without an invitation). */
export async function createUser(
  db: Database,
  input: { email: string; name: string; passwordHash: string; organizationName: string | null },
) {
  const email = input.email.toLowerCase();
  return prismaOf(db).$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email } })) throw new EmailTakenError(email);
    const user = await tx.user.create({ data: { email, name: input.name, passwordHash: input.passwordHash } });
    const organization = input.organizationName ? await createOrganizationIn(tx, input.organizationName, user.id) : null;
    return { user, organization };
  });
}

/** The organisation with this slug (its id), or null. */
export async function findOrganizationBySlug(db: Database, slug: string): Promise<{ id: string } | null> {
  return prismaOf(db).organization.findUnique({ where: { slug }, select: { id: true } });
}

/** The organisation's longest-standing member with one of `roles` (and this email, when given), or null. */
export async function oldestMember(
  db: Database,
  organizationId: string,
  opts: { roles: Role[]; email?: string },
): Promise<{ userId: string } | null> {
  return prismaOf(db).membership.findFirst({
    where: { organizationId, role: { in: opts.roles }, ...(opts.email ? { user: { email: opts.email } } : {}) },
    orderBy: { createdAt: "asc" },
    select: { userId: true },
  });
}

export async function findMembership(db: Database, userId: string, organizationId: string) {
  return prismaOf(db).membership.findUnique({ where: { userId_organizationId: { userId, organizationId } } });
}

/** Points a browser session at another organisation; the caller has checked the membership. */
export async function setActiveOrganization(db: Database, sessionId: string, userId: string, organizationId: string): Promise<boolean> {
  const { count } = await prismaOf(db).session.updateMany({
    where: { id: sessionId, userId },
    data: { activeOrganizationId: organizationId },
  });
  return count === 1;
}

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: Date;
}

export async function listMembers(db: Database, organizationId: string): Promise<MemberView[]> {
  const rows = await prismaOf(db).membership.findMany({
    where: { organizationId },
    include: { user: { select: { email: true, name: true } } },
    orderBy: [{ createdAt: "asc" }],
  });
  return rows.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, joinedAt: m.createdAt }));
}

/** Locks the organisation's admin rows so two concurrent demotions cannot both pass the last-admin check. */
async function otherAdmins(tx: Tx, organizationId: string, userId: string): Promise<number> {
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT user_id FROM memberships WHERE organization_id = ${organizationId}::uuid AND role = 'admin' FOR UPDATE`;
  return rows.filter((r) => r.user_id !== userId).length;
}

/** Before and after, or null when the user is not a member of this organisation. */
export async function changeMemberRole(
  db: Database,
  organizationId: string,
  userId: string,
  role: Role,
  audit?: Audited<{ before: { role: Role }; after: { role: Role } }>,
) {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.membership.findUnique({ where: { userId_organizationId: { userId, organizationId } } });
    if (!before) return null;
    if (before.role === "admin" && role !== "admin" && (await otherAdmins(tx, organizationId, userId)) === 0) throw new LastAdminError();
    const after = await tx.membership.update({ where: { userId_organizationId: { userId, organizationId } }, data: { role } });
    const changed = { before: { role: before.role }, after: { role: after.role } };
    await recordAudited(tx, audit, changed);
    return changed;
  });
}

/** Removes the membership and the user's sessions in this organisation; null when not a member. */
export async function removeMember(db: Database, organizationId: string, userId: string, audit?: Audited<{ email: string; role: Role }>) {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.membership.findUnique({
      where: { userId_organizationId: { userId, organizationId } },
      include: { user: { select: { email: true } } },
    });
    if (!before) return null;
    if (before.role === "admin" && (await otherAdmins(tx, organizationId, userId)) === 0) throw new LastAdminError();
    await tx.membership.delete({ where: { userId_organizationId: { userId, organizationId } } });
    await tx.session.deleteMany({ where: { userId, activeOrganizationId: organizationId } });
    const removed = { email: before.user.email, role: before.role };
    await recordAudited(tx, audit, removed);
    return removed;
  });
}

/** The organisation's time zone (IANA), in which cron schedules are read. */
export async function organizationTimeZone(db: Database, organizationId: string): Promise<string> {
  const row = await prismaOf(db).organization.findUnique({ where: { id: organizationId }, select: { timeZone: true } });
  return row?.timeZone ?? "UTC";
}

/** Sets the time zone (validated by the caller); before and after, for the audit log. */
export async function setOrganizationTimeZone(
  db: Database,
  organizationId: string,
  timeZone: string,
  audit?: Audited<{ before: { timeZone: string }; after: { timeZone: string } }>,
) {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.organization.findUnique({ where: { id: organizationId }, select: { timeZone: true } });
    await tx.organization.update({ where: { id: organizationId }, data: { timeZone } });
    const change = { before: { timeZone: before?.timeZone ?? "UTC" }, after: { timeZone } };
    await recordAudited(tx, audit, change);
    return change;
  });
}
