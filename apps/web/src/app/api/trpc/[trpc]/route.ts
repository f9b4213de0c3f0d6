import { appRouter } from "@tidemark/api";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getDatabase } from "~/server/database";
import { isSameOrigin, readCookie, SESSION_COOKIE, sessionFromCookie } from "~/server/session";

export const dynamic = "force-dynamic";

async function handler(request: Request) {
  const db = await getDatabase();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () => ({
      db,
      session: await sessionFromCookie(db, readCookie(request.headers.get("cookie"), SESSION_COOKIE)),
      sameOrigin: isSameOrigin(request),
    }),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error);
    },
  });
}

export { handler as GET, handler as POST };
