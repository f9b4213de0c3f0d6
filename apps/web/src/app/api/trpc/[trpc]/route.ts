import { withDatabase } from "~/server/database";
import { trpcResponse } from "~/server/trpc-response";

export const dynamic = "force-dynamic";

/** The dashboard's API; see trpc-response.ts. */
async function handler(request: Request) {
  return withDatabase((db) => trpcResponse(db, request));
}

export { handler as GET, handler as POST };
