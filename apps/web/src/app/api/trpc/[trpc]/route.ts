import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { trpcResponse } from "~/server/trpc-response";

export const dynamic = "force-dynamic";

/** The dashboard's API; see trpc-response.ts. */
async function handler(request: Request) {
  return withDatabase((db) => trpcResponse(db, request));
}

/** One route for every procedure: the procedure is in the path. */
const measured = instrumented("/api/trpc", handler);

export { measured as GET, measured as POST };
