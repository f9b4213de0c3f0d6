import { type Audited, recordAudit, recordAudited } from "./audit.ts";
import type { Role } from "./auth.ts";
import { type Database, prismaOf } from "./database.ts";

/**
 * Invitations by link. The link's secret is only ever stored as its hash; an invitation is for one
 * email address, so a forwarded link is useless to anyone else.
 */

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

const view = (i: InvitationView): InvitationView => ({
  id: i.id,
  email: i.email,
  role: i.role,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  acceptedAt: i.acceptedAt,
});

export async function createInvitation(
  db: Database,
  input: { organizationId: string; email: string; role: Role; tokenHash: string; createdBy: string; expiresAt: Date },
  audit?: Audited<InvitationView>,
): Promise<InvitationView> {
  return prismaOf(db).$transaction(async (tx) => {
    const invitation = view(await tx.invitation.create({ data: { ...input, email: input.email.toLowerCase() } }));
    await recordAudited(tx, audit, invitation);
    return invitation;
  });
}

export async function listInvitations(db: Database, organizationId: string): Promise<InvitationView[]> {
  const rows = await prismaOf(db).invitation.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" }, take: 200 });
  return rows.map(view);
}

/** Deletes a pending invitation; null when there is none with this id in the organisation. */
export async function revokeInvitation(
  db: Database,
  organizationId: string,
  id: string,
  audit?: Audited<InvitationView>,
): Promise<InvitationView | null> {
  return prismaOf(db).$transaction(async (tx) => {
    const invitation = await tx.invitation.findFirst({ where: { id, organizationId, acceptedAt: null } });
    if (!invitation) return null;
    await tx.invitation.delete({ where: { id } });
    const revoked = view(invitation);
    await recordAudited(tx, audit, revoked);
    return revoked;
  });
}

export interface PendingInvitation extends InvitationView {
  organizationId: string;
  organizationName: string;
}

/** The invitation behind a link's hash, if it is still pending and not expired. */
export async function findPendingInvitation(db: Database, tokenHash: string, now = new Date()): Promise<PendingInvitation | null> {
  const invitation = await prismaOf(db).invitation.findUnique({ where: { tokenHash }, include: { organization: true } });
  if (!invitation || invitation.acceptedAt || invitation.expiresAt <= now) return null;
  return { ...view(invitation), organizationId: invitation.organizationId, organizationName: invitation.organization.name };
}

/**
 * Marks the invitation accepted and makes the user a member with its role (an existing membership
 * keeps the higher of the two roles), recording it in the organisation's audit log in the same
 * transaction (`newAccount`: the user signed up with it). Returns null when the invitation was taken meanwhile.
 */
export async function acceptInvitation(
  db: Database,
  invitationId: string,
  userId: string,
  opts: { newAccount?: boolean; now?: Date } = {},
) {
  const now = opts.now ?? new Date();
  return prismaOf(db).$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitationId, acceptedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (count !== 1) return null;
    const invitation = await tx.invitation.findUniqueOrThrow({ where: { id: invitationId } });
    const existing = await tx.membership.findUnique({
      where: { userId_organizationId: { userId, organizationId: invitation.organizationId } },
    });
    const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };
    const role = existing && rank[existing.role] >= rank[invitation.role] ? existing.role : invitation.role;
    await tx.membership.upsert({
      where: { userId_organizationId: { userId, organizationId: invitation.organizationId } },
      create: { userId, organizationId: invitation.organizationId, role },
      update: { role },
    });
    await recordAudit(tx, {
      organizationId: invitation.organizationId,
      actorUserId: userId,
      actorKind: "user",
      action: "invitation.accept",
      targetType: "member",
      targetId: userId,
      before: existing ? { role: existing.role } : null,
      after: { role, invitationId, ...(opts.newAccount ? { newAccount: true } : {}) },
    });
    return { organizationId: invitation.organizationId, role, previousRole: existing?.role ?? null };
  });
}
