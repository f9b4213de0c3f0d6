import { appRouter } from "@tidemark/api";
import { hashToken } from "@tidemark/auth";
import { type Database, isDatabaseUnavailable } from "@tidemark/db/client";
import { bearerToken } from "@tidemark/db/fleet";
import { authenticateApiToken } from "@tidemark/db/organizations";
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { MAX_TRPC_BATCH } from "../trpc/batch.ts";
import { UNAVAILABLE_RETRY_AFTER_S } from "./database.ts";
import { processSharedReads } from "./process-shared-reads.ts";
import { isSameOrigin, readCookie, SESSION_COOKIE, sessionFromCookie } from "./session.ts";

/**
 * Scripts authenticate with `Authorization: Bearer tm_api_…` instead of the cookie. A browser never
 * attaches that header on its own, so such requests need no Origin check (and never fall back to the cookie).
 */
async function requestSession(db: Database, request: Request) {
  const bearer = bearerToken(request.headers.get("authorization"));
  if (bearer !== null) {
    const session = bearer.startsWith("tm_api_") ? await authenticateApiToken(db, hashToken(bearer)) : null;
    return { session, sameOrigin: true };
  }
  return {
    session: await sessionFromCookie(db, readCookie(request.headers.get("cookie"), SESSION_COOKIE)),
    sameOrigin: isSameOrigin(request),
  };
}

/** `/api/trpc`: a plain Request → Response function of a database, so the integration tests call it. */
export function trpcResponse(db: Database, request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    maxBatchSize: MAX_TRPC_BATCH,
    createContext: async () => {
      try {
        return { db, sharedReads: processSharedReads(), ...(await requestSession(db, request)) };
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "the database is unavailable: retry in a few seconds", cause: error });
      }
    },
    responseMeta: ({ errors }) =>
      errors.some((e) => e.code === "SERVICE_UNAVAILABLE")
        ? { headers: new Headers({ "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) }) }
        : {},
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error);
    },
  });
}
