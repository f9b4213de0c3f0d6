import { hashToken } from "@tidemark/auth";
import { deleteSession } from "@tidemark/db/organizations";
import { getDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { isSameOrigin, readCookie, SESSION_COOKIE, sessionCookieAttributes } from "~/server/session";

export const dynamic = "force-dynamic";

export const POST = instrumented("/api/auth/sign-out", async (request: Request) => {
  if (!isSameOrigin(request)) return Response.json({ error: "cross-site request refused" }, { status: 403 });
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (token) await deleteSession(await getDatabase(), hashToken(token));
  return Response.json({ ok: true }, { headers: { "Set-Cookie": `${SESSION_COOKIE}=; ${sessionCookieAttributes(request, 0)}` } });
});
