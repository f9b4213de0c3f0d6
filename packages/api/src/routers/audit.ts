import { auditFacets, listAuditEntries } from "@tidemark/db/organizations";
import { z } from "zod";
import { adminProcedure, createTRPCRouter } from "../trpc.ts";

const filterSchema = z
  .object({
    actorUserId: z.uuid().nullish(),
    action: z.string().trim().max(100).nullish(),
    targetType: z.string().trim().max(100).nullish(),
    targetId: z.string().trim().max(200).nullish(),
    from: z.date().nullish(),
    to: z.date().nullish(),
    before: z
      .string()
      .regex(/^\d{1,19}$/, "a page cursor")
      .nullish(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .refine((f) => !f.from || !f.to || f.from < f.to, { message: "from must be before to", path: ["to"] });

/** The audit log is for admins: it shows member emails and every change's before/after. */
export const auditRouter = createTRPCRouter({
  list: adminProcedure
    .input(filterSchema)
    .query(({ ctx, input }) => listAuditEntries(ctx.db, ctx.org.id, { ...input, before: input.before ? BigInt(input.before) : null })),
  facets: adminProcedure.query(({ ctx }) => auditFacets(ctx.db, ctx.org.id)),
});
