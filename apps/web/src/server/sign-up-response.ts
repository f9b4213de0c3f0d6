import { zodIssues } from "@tidemark/api/http";
import { clientAddress, hashPassword, hashToken, issueToken, parseTrustedProxies } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import {
  acceptInvitation,
  createSession,
  createUser,
  EmailTakenError,
  findPendingInvitation,
  rateLimitBucket,
} from "@tidemark/db/organizations";
import { SESSION_COOKIE, SESSION_DAYS, sessionCookieAttributes } from "./session.ts";
import { signUpSchema } from "./sign-up-schema.ts";

/**
 * Account creation per client address: scrypt is expensive, and sign-up must not become a spam or
 * enumeration pump. Counted in PostgreSQL (rate-limits.ts), so that every web instance agrees.
 * Accepting a pending invitation for its own email address is not counted: an administrator asked
 * for that account, and a team joining from one office (one address) must not stop at the fifth.
 */
export const SIGN_UP_LIMIT = { limit: 5, windowMs: 60 * 60_000 };

const trustedProxies = parseTrustedProxies(process.env.TIDEMARK_TRUSTED_PROXIES);

/** `POST /api/auth/sign-up` (same-origin checked by the route): a plain Request → Response function of a database. */
export async function signUpResponse(db: Database, request: Request): Promise<Response> {
  const parsed = signUpSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "check the highlighted fields", issues: zodIssues(parsed.error) }, { status: 400 });
  const input = parsed.data;
  const invitation = input.invitation ? await findPendingInvitation(db, hashToken(input.invitation)) : null;
  const invited = invitation !== null && invitation.email === input.email.toLowerCase();
  if (!invited) {
    const attempt = await rateLimitBucket(db, `sign-up:address:${clientAddress(request.headers, trustedProxies)}`, SIGN_UP_LIMIT, 1);
    if (!attempt.allowed) {
      return Response.json(
        { error: `too many sign-ups from this address: try again in ${attempt.retryAfterSeconds} s` },
        { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
      );
    }
  }
  if (input.invitation && !invitation) {
    return Response.json({ error: "this invitation link is unknown, used or expired: ask for a new one" }, { status: 404 });
  }
  if (invitation && !invited) {
    return Response.json({ error: "this invitation was sent to another email address: sign up with that one" }, { status: 403 });
  }
  let created: Awaited<ReturnType<typeof createUser>>;
  try {
    // Without an invitation the account comes with its organisation, whose audit log records it (same transaction).
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
  let organizationId: string;
  if (invitation) {
    const joined = await acceptInvitation(db, invitation.id, user.id, { newAccount: true });
    if (!joined) return Response.json({ error: "this invitation was used meanwhile: ask for a new one, then sign in" }, { status: 409 });
    organizationId = joined.organizationId;
  } else {
    if (!created.organization) throw new Error("sign-up without an invitation must create an organisation");
    organizationId = created.organization.id;
  }
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
}
