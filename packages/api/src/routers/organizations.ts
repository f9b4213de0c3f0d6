import {
  createOrganization,
  findMembership,
  isApiTokenSession,
  listMemberships,
  organizationTimeZone,
  setActiveOrganization,
  setOrganizationTimeZone,
} from "@tidemark/db/organizations";
import { timeZoneSchema } from "@tidemark/model";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, authedProcedure, createTRPCRouter, viewerProcedure } from "../trpc.ts";

export const organizationNameSchema = z.string().trim().min(2, "at least 2 characters").max(100);

function browserSessionOnly(sessionId: string) {
  if (isApiTokenSession(sessionId)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "an API token belongs to one organisation and cannot switch" });
  }
}

/** The organisations of the signed-in user, whichever is active. */
export const organizationsRouter = createTRPCRouter({
  list: authedProcedure.query(async ({ ctx }) => {
    const memberships = await listMemberships(ctx.db, ctx.session.userId);
    // An API token sees only the organisation it is scoped to.
    const visible = isApiTokenSession(ctx.session.sessionId)
      ? memberships.filter((m) => m.organizationId === ctx.session.organizationId)
      : memberships;
    return visible.map((m) => ({
      id: m.organizationId,
      name: m.organization.name,
      role: m.role,
      active: m.organizationId === ctx.session.organizationId,
    }));
  }),

  switch: authedProcedure.input(z.object({ organizationId: z.uuid() })).mutation(async ({ ctx, input }) => {
    browserSessionOnly(ctx.session.sessionId);
    const membership = await findMembership(ctx.db, ctx.session.userId, input.organizationId);
    if (!membership) throw new TRPCError({ code: "NOT_FOUND", message: "you are not a member of that organisation" });
    await setActiveOrganization(ctx.db, ctx.session.sessionId, ctx.session.userId, input.organizationId);
    return { organizationId: input.organizationId, role: membership.role };
  }),

  /** Another organisation, administered by the caller, which becomes the active one. */
  create: authedProcedure.input(z.object({ name: organizationNameSchema })).mutation(async ({ ctx, input }) => {
    browserSessionOnly(ctx.session.sessionId);
    const organization = await createOrganization(ctx.db, { name: input.name, userId: ctx.session.userId });
    await setActiveOrganization(ctx.db, ctx.session.sessionId, ctx.session.userId, organization.id);
    return { id: organization.id, name: organization.name };
  }),

  /** The active organisation's settings: its time zone (cron schedules are read in it; default UTC). */
  settings: viewerProcedure.query(async ({ ctx }) => ({ timeZone: await organizationTimeZone(ctx.db, ctx.org.id) })),

  /** Sets the time zone agents and the worker read cron schedules in; agents get it with the next deployment. */
  setTimeZone: adminProcedure.input(z.object({ timeZone: timeZoneSchema })).mutation(async ({ ctx, input }) => {
    const change = await setOrganizationTimeZone(
      ctx.db,
      ctx.org.id,
      input.timeZone,
      auditedBy(ctx, (c) => ({ action: "organization.time_zone", targetType: "organization", targetId: ctx.org.id, ...c })),
    );
    return change.after;
  }),
});
