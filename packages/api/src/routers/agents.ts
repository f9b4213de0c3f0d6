import { createAgent, listAgentServices, listAgents, revokeAgent } from "@tidemark/db/fleet";
import { nameSchema } from "@tidemark/model";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc.ts";

export const agentsRouter = createTRPCRouter({
  list: viewerProcedure.query(({ ctx }) => listAgents(ctx.db, ctx.org.id)),

  /** One agent and the services it is assigned (what it runs once deployed). */
  get: viewerProcedure.input(z.object({ id: z.uuid() })).query(async ({ ctx, input }) => {
    const agent = (await listAgents(ctx.db, ctx.org.id)).find((a) => a.id === input.id);
    if (!agent) throw new TRPCError({ code: "NOT_FOUND", message: "no such agent in this organisation" });
    return { agent, services: await listAgentServices(ctx.db, ctx.org.id, input.id) };
  }),

  /** The token is in this answer only: it is stored as a hash. */
  create: adminProcedure.input(z.object({ name: nameSchema })).mutation(async ({ ctx, input }) => {
    return createAgent(
      ctx.db,
      ctx.org.id,
      input.name,
      auditedBy(ctx, (agent) => ({
        action: "agent.create",
        targetType: "agent",
        targetId: agent.id,
        after: { name: agent.name, tokenPrefix: agent.tokenPrefix },
      })),
    );
  }),

  revoke: adminProcedure.input(z.object({ id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeAgent(
      ctx.db,
      ctx.org.id,
      input.id,
      auditedBy(ctx, (agent) => ({ action: "agent.revoke", targetType: "agent", targetId: agent.id, before: { name: agent.name } })),
    );
    if (!revoked) throw new TRPCError({ code: "NOT_FOUND", message: "no such active agent in this organisation" });
    return { revoked: true };
  }),
});
