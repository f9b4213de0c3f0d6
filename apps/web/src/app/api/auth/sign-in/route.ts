import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { isSameOrigin } from "~/server/session";
import { signInResponse } from "~/server/sign-in-response";

export const dynamic = "force-dynamic";

/** Signs in with email and password; see sign-in-response.ts for the limits on guessing. */
export const POST = instrumented("/api/auth/sign-in", async (request: Request) => {
  if (!isSameOrigin(request)) return Response.json({ error: "cross-site request refused" }, { status: 403 });
  return withDatabase((db) => signInResponse(db, request));
});
