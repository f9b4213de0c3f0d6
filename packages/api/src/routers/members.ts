import { changeMemberRole, LastAdminError, listMembers, removeMember } from "@tidemark/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { adminProcedure, createTRPCRouter } from "../trpc.ts";
import { auditedBy } from "./audit.ts";

export const roleSchema = z.enum(["viewer", "editor", "admin"]);

async function lastAdminGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LastAdminError) throw new TRPCError({ code: "CONFLICT", message: error.message });
    throw error;
  }
}

const notMember = (): never => {
  throw new TRPCError({ code: "NOT_FOUND", message: "no such member in this organisation" });
};

export const membersRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.org.id)),

  changeRole: adminProcedure.input(z.object({ userId: z.uuid(), role: roleSchema })).mutation(async ({ ctx, input }) => {
    const changed = await lastAdminGuard(() =>
      changeMemberRole(
        ctx.db,
        ctx.org.id,
        input.userId,
        input.role,
        auditedBy(ctx, (change) => ({ action: "member.role", targetType: "member", targetId: input.userId, ...change })),
      ),
    );
    if (!changed) return notMember();
    return changed.after;
  }),

  remove: adminProcedure.input(z.object({ userId: z.uuid() })).mutation(async ({ ctx, input }) => {
    const removed = await lastAdminGuard(() =>
      removeMember(
        ctx.db,
        ctx.org.id,
        input.userId,
        auditedBy(ctx, (member) => ({ action: "member.remove", targetType: "member", targetId: input.userId, before: member })),
      ),
    );
    if (!removed) return notMember();
    return { userId: input.userId };
  }),
});
