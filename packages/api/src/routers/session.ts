import { listMemberships } from "@tidemark/db/organizations";
import { authedProcedure, createTRPCRouter, publicProcedure } from "../trpc.ts";

export const sessionRouter = createTRPCRouter({
  /** Who is signed in (null when nobody is): the shell of every page. */
  me: publicProcedure.query(({ ctx }) => ctx.session),
  organizations: authedProcedure.query(async ({ ctx }) => {
    const memberships = await listMemberships(ctx.db, ctx.session.userId);
    return memberships.map((m) => ({ id: m.organizationId, name: m.organization.name, slug: m.organization.slug, role: m.role }));
  }),
});
