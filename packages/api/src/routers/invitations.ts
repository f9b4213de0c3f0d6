import { hashToken, issueToken } from "@tidemark/auth";
import {
  acceptInvitation,
  createInvitation,
  findPendingInvitation,
  isApiTokenSession,
  listInvitations,
  revokeInvitation,
  setActiveOrganization,
} from "@tidemark/db/organizations";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { roleSchema } from "../inputs/role.ts";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, authedProcedure, createTRPCRouter, publicProcedure } from "../trpc.ts";

const INVITATION_DAYS = 7;
const tokenInput = z.object({ token: z.string().trim().min(10).max(200) });

const noInvitation = (): never => {
  throw new TRPCError({ code: "NOT_FOUND", message: "this invitation link is unknown, used or expired: ask for a new one" });
};

export const invitationsRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listInvitations(ctx.db, ctx.org.id)),

  /** The link's secret is in this answer only; the database keeps its hash. */
  create: adminProcedure.input(z.object({ email: z.email().max(320), role: roleSchema })).mutation(async ({ ctx, input }) => {
    const token = issueToken("tm_invite");
    const invitation = await createInvitation(
      ctx.db,
      {
        organizationId: ctx.org.id,
        email: input.email,
        role: input.role,
        tokenHash: token.hash,
        createdBy: ctx.org.userId,
        expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
      },
      auditedBy(ctx, (created) => ({
        action: "invitation.create",
        targetType: "invitation",
        targetId: created.id,
        after: { email: created.email, role: created.role, expiresAt: created.expiresAt },
      })),
    );
    return { invitation, token: token.secret, path: `/invite/${token.secret}` };
  }),

  revoke: adminProcedure.input(z.object({ id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeInvitation(
      ctx.db,
      ctx.org.id,
      input.id,
      auditedBy(ctx, (invitation) => ({
        action: "invitation.revoke",
        targetType: "invitation",
        targetId: input.id,
        before: { email: invitation.email, role: invitation.role },
      })),
    );
    if (!revoked) return noInvitation();
    return { id: input.id };
  }),

  /** What the accept page shows: whoever holds the link may see which organisation invites which address. */
  lookup: publicProcedure.input(tokenInput).query(async ({ ctx, input }) => {
    const invitation = await findPendingInvitation(ctx.db, hashToken(input.token));
    if (!invitation) return noInvitation();
    return {
      organizationName: invitation.organizationName,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
    };
  }),

  /** Joins the invitation's organisation (as the invited address only) and makes it the active one. */
  accept: authedProcedure.input(tokenInput).mutation(async ({ ctx, input }) => {
    if (isApiTokenSession(ctx.session.sessionId)) {
      throw new TRPCError({ code: "FORBIDDEN", message: "accept an invitation in the browser, not with an API token" });
    }
    const invitation = await findPendingInvitation(ctx.db, hashToken(input.token));
    if (!invitation) return noInvitation();
    if (invitation.email !== ctx.session.email.toLowerCase()) {
      throw new TRPCError({ code: "FORBIDDEN", message: "this invitation was sent to another email address: sign in with that one" });
    }
    const joined = await acceptInvitation(ctx.db, invitation.id, ctx.session.userId);
    if (!joined) return noInvitation();
    await setActiveOrganization(ctx.db, ctx.session.sessionId, ctx.session.userId, joined.organizationId);
    return { organizationId: joined.organizationId, organizationName: invitation.organizationName, role: joined.role };
  }),
});
