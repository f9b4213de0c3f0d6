import { isDatabaseUnavailable } from "@tidemark/db/client";
import { isApiTokenSession, type Role } from "@tidemark/db/organizations";
import { findUnstorableText } from "@tidemark/protocol";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Context } from "./context.ts";
import { clientError } from "./errors.ts";
import { wireFormat } from "./wire-format.ts";

/**
 * Routers get procedure types, never the bare builder: every procedure that touches an
 * organisation's data is built from `viewerProcedure`, `editorProcedure` or `adminProcedure`,
 * which put the caller's organisation id and role on `ctx.org`, so scoping and authorisation
 * cannot be forgotten.
 */

const t = initTRPC.context<Context>().create({
  transformer: wireFormat,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      data: {
        ...shape.data,
        // Field-level messages for forms (the same zod schemas validate in the browser).
        fieldErrors: error.cause instanceof ZodError ? error.cause.flatten().fieldErrors : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Mutations must come from our own pages (the session cookie is also SameSite=Lax). */
const sameOriginMutations = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && !ctx.sameOrigin) {
    throw new TRPCError({ code: "FORBIDDEN", message: "cross-site request refused" });
  }
  return next();
});

/**
 * No procedure receives a string PostgreSQL cannot store (a NUL, a lone surrogate): refused here,
 * with where it is, instead of failing inside a query (a 500 that leaked the driver's message).
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const unstorable = findUnstorableText(await getRawInput());
  if (unstorable) {
    throw new TRPCError({ code: "BAD_REQUEST", message: `${unstorable.path.join(".") || "input"} ${unstorable.reason}` });
  }
  return next();
});

/** The database being down is no bug of the call: 503 (SERVICE_UNAVAILABLE), so clients retry instead of reporting a 500. */
const databaseAvailability = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    throw new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: "the database is unavailable: retry in a few seconds",
      cause: result.error,
    });
  }
  return result;
});

/** The domain's refusals (not found, conflict, invalid draft…) as client errors: mapped here, for every procedure, from errors.ts. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = clientError(result.error.cause);
    if (mapped) throw mapped;
  }
  return result;
});

export const publicProcedure = t.procedure.use(databaseAvailability).use(domainErrors).use(sameOriginMutations).use(storableInput);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

export function roleAtLeast(role: Role, required: Role): boolean {
  return RANK[role] >= RANK[required];
}

function orgProcedure(required: Role) {
  return authedProcedure.use(async ({ ctx, next, type }) => {
    if (!roleAtLeast(ctx.session.role, required)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `this needs the ${required} role; you are ${ctx.session.role}` });
    }
    const result = await next({
      ctx: {
        ...ctx,
        org: {
          id: ctx.session.organizationId,
          role: ctx.session.role,
          userId: ctx.session.userId,
          /** Who the audit log says made a change: the person, or their API token by name. */
          actor: {
            organizationId: ctx.session.organizationId,
            userId: ctx.session.userId,
            ...(isApiTokenSession(ctx.session.sessionId)
              ? { kind: "api-token" as const, name: ctx.session.name }
              : { kind: "user" as const }),
          },
        },
      },
    });
    // Whatever a mutation changed (even one that failed half-way), the next read sees it.
    if (type === "mutation") ctx.sharedReads?.forget(ctx.session.organizationId);
    return result;
  });
}

export const viewerProcedure = orgProcedure("viewer");
export const editorProcedure = orgProcedure("editor");
export const adminProcedure = orgProcedure("admin");
