import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { isSameOrigin } from "~/server/session";
import { signUpResponse } from "~/server/sign-up-response";

export const dynamic = "force-dynamic";

/** Creates an account; see sign-up-response.ts for the limit per client address. */
export const POST = instrumented("/api/auth/sign-up", async (request: Request) => {
  if (!isSameOrigin(request)) return Response.json({ error: "cross-site request refused" }, { status: 403 });
  return withDatabase((db) => signUpResponse(db, request));
});
