import { zodIssues } from "@tidemark/api/http";
import { clientAddress, hashPassword, hashToken, issueToken, parseTrustedProxies, RateLimiter } from "@tidemark/auth";
import { acceptInvitation, createSession, createUser, EmailTakenError, findPendingInvitation, recordAudit } from "@tidemark/db";
import { getDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { isSameOrigin, SESSION_COOKIE, SESSION_DAYS, sessionCookieAttributes } from "~/server/session";
import { signUpSchema } from "~/server/sign-up-schema";

export const dynamic = "force-dynamic";

/** Account creation per address: scrypt is expensive, and sign-up must not become a spam or enumeration pump. */
const signUps = new RateLimiter({ limit: 5, windowMs: 60 * 60_000 });
const trustedProxies = parseTrustedProxies(process.env.TIDEMARK_TRUSTED_PROXIES);

export const POST = instrumented("/api/auth/sign-up", async (request: Request) => {
  if (!isSameOrigin(request)) return Response.json({ error: "cross-site request refused" }, { status: 403 });
  const parsed = signUpSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "check the highlighted fields", issues: zodIssues(parsed.error) }, { status: 400 });
  const attempt = signUps.hit(clientAddress(request.headers, trustedProxies), Date.now());
  if (!attempt.allowed) {
    return Response.json(
      { error: `too many sign-ups from this address: try again in ${attempt.retryAfterSeconds} s` },
      { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
    );
  }
  const input = parsed.data;
  const db = await getDatabase();
  const invitation = input.invitation ? await findPendingInvitation(db, hashToken(input.invitation)) : null;
  if (input.invitation && !invitation) {
    return Response.json({ error: "this invitation link is unknown, used or expired: ask for a new one" }, { status: 404 });
  }
  if (invitation && invitation.email !== input.email.toLowerCase()) {
    return Response.json({ error: "this invitation was sent to another email address: sign up with that one" }, { status: 403 });
  }
  let created: Awaited<ReturnType<typeof createUser>>;
  try {
    created = await createUser(db, {
      email: input.email,
      name: input.name,
      passwordHash: await hashPassword(input.password),
      organizationName: invitation ? null : (input.organizationName ?? null),
    });
  } catch (error) {
    if (error instanceof EmailTakenError) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
  const { user } = created;
  let change: { organizationId: string; action: string; targetType: string; targetId: string; after: object };
  if (invitation) {
    const joined = await acceptInvitation(db, invitation.id, user.id);
    if (!joined) return Response.json({ error: "this invitation was used meanwhile: ask for a new one, then sign in" }, { status: 409 });
    change = {
      organizationId: joined.organizationId,
      action: "invitation.accept",
      targetType: "member",
      targetId: user.id,
      after: { role: joined.role, invitationId: invitation.id, newAccount: true },
    };
  } else {
    const organization = created.organization;
    if (!organization) throw new Error("sign-up without an invitation must create an organisation");
    change = {
      organizationId: organization.id,
      action: "organization.create",
      targetType: "organization",
      targetId: organization.id,
      after: { name: organization.name, slug: organization.slug },
    };
  }
  await recordAudit(db, { ...change, actorUserId: user.id, actorKind: "user" });
  const { organizationId } = change;
  const token = issueToken("tm_session");
  await createSession(db, {
    tokenHash: token.hash,
    userId: user.id,
    organizationId,
    expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
  });
  return Response.json(
    { ok: true, organizationId },
    {
      status: 201,
      headers: { "Set-Cookie": `${SESSION_COOKIE}=${token.secret}; ${sessionCookieAttributes(request, SESSION_DAYS * 86_400)}` },
    },
  );
});
