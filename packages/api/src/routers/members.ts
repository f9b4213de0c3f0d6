import { changeMemberRole, listMembers, removeMember } from "@tidemark/db/organizations";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { roleSchema } from "../inputs/role.ts";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, createTRPCRouter } from "../trpc.ts";

const notMember = (): never => {
  throw new TRPCError({ code: "NOT_FOUND", message: "no such member in this organisation" });
};

export const membersRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.org.id)),

  changeRole: adminProcedure.input(z.object({ userId: z.uuid(), role: roleSchema })).mutation(async ({ ctx, input }) => {
    const changed = await changeMemberRole(
      ctx.db,
      ctx.org.id,
      input.userId,
      input.role,
      auditedBy(ctx, (change) => ({ action: "member.role", targetType: "member", targetId: input.userId, ...change })),
    );
    if (!changed) return notMember();
    return changed.after;
  }),

  remove: adminProcedure.input(z.object({ userId: z.uuid() })).mutation(async ({ ctx, input }) => {
    const removed = await removeMember(
      ctx.db,
      ctx.org.id,
      input.userId,
      auditedBy(ctx, (member) => ({ action: "member.remove", targetType: "member", targetId: input.userId, before: member })),
    );
    if (!removed) return notMember();
    return { userId: input.userId };
  }),
});
