import { issueToken } from "@tidemark/auth";
import { createApiToken, listApiTokens, revokeApiToken } from "@tidemark/db/organizations";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { roleSchema } from "../inputs/role.ts";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, createTRPCRouter } from "../trpc.ts";

/** API tokens for scripts: `Authorization: Bearer tm_api_…` on /api/trpc. */
export const tokensRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listApiTokens(ctx.db, ctx.org.id)),

  /** The secret is in this answer only: the database keeps its hash and prefix. */
  create: adminProcedure
    .input(z.object({ name: z.string().trim().min(1, "name the token after what uses it").max(100), role: roleSchema }))
    .mutation(async ({ ctx, input }) => {
      const secret = issueToken("tm_api");
      const token = await createApiToken(
        ctx.db,
        {
          organizationId: ctx.org.id,
          name: input.name,
          role: input.role,
          prefix: secret.prefix,
          tokenHash: secret.hash,
          createdBy: ctx.org.userId,
        },
        auditedBy(ctx, (created) => ({
          action: "api-token.create",
          targetType: "api_token",
          targetId: created.id,
          after: { name: created.name, role: created.role, prefix: created.prefix },
        })),
      );
      return { token, secret: secret.secret };
    }),

  revoke: adminProcedure.input(z.object({ id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeApiToken(
      ctx.db,
      ctx.org.id,
      input.id,
      new Date(),
      auditedBy(ctx, (token) => ({
        action: "api-token.revoke",
        targetType: "api_token",
        targetId: input.id,
        before: { name: token.name, revokedAt: null },
        after: { name: token.name, revokedAt: token.revokedAt },
      })),
    );
    if (!revoked) throw new TRPCError({ code: "NOT_FOUND", message: "no such active API token in this organisation" });
    return revoked;
  }),
});
