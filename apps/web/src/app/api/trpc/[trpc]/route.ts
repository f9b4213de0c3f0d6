import { trpcRoute } from "~/server/trpc-route";

export const dynamic = "force-dynamic";

/** The dashboard's API (server/trpc-route.ts); one route for every procedure: the procedure is in the path. */
export { trpcRoute as GET, trpcRoute as POST };
