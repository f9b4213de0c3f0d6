import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { appRouter } from "@tidemark/api";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { cache, type ReactNode } from "react";
import { currentSession } from "~/server/current-session";
import { getDatabase } from "~/server/database";
import { processSharedReads } from "~/server/process-shared-reads";
import { makeQueryClient } from "./query-client";

/** The request's query client: what server components prefetch into and hand to the browser. */
export const getQueryClient = cache(makeQueryClient);

/**
 * tRPC for server components: procedures run in-process as the signed-in user, their results land
 * in the request's query client. Server components only read, so the mutation origin check is moot.
 */
export const serverTRPC = createTRPCOptionsProxy({
  router: appRouter,
  ctx: async () => ({ db: await getDatabase(), session: await currentSession(), sameOrigin: true, sharedReads: processSharedReads() }),
  queryClient: getQueryClient,
});

/** Hands what this request prefetched (finished or still running) to the client components below. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
