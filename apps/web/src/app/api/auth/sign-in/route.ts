import { clientAddress, issueToken, RateLimiter, verifyPassword } from "@tidemark/auth";
import { createSession, findUserByEmail, firstMembership } from "@tidemark/db";
import { z } from "zod";
import { getDatabase } from "~/server/database";
import { isSameOrigin, SESSION_COOKIE, SESSION_DAYS, sessionCookieAttributes } from "~/server/session";

export const dynamic = "force-dynamic";

const signInSchema = z.object({ email: z.string().trim().email().max(320), password: z.string().min(1).max(1024) });

/** Password guessing: 10 attempts per address and account, then one more every 90 s. */
const signInAttempts = new RateLimiter({ limit: 10, windowMs: 15 * 60_000 });
/** Per account from anywhere, since X-Forwarded-For can be forged when no proxy overwrites it. */
const accountAttempts = new RateLimiter({ limit: 30, windowMs: 15 * 60_000 });

export async function POST(request: Request) {
  if (!isSameOrigin(request)) return Response.json({ error: "cross-site request refused" }, { status: 403 });
  const parsed = signInSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "enter an email address and a password" }, { status: 400 });
  const account = parsed.data.email.toLowerCase();
  const attemptKey = `${clientAddress(request.headers)}|${account}`;
  const now = Date.now();
  const fromHere = signInAttempts.hit(attemptKey, now);
  const attempt = fromHere.allowed ? accountAttempts.hit(account, now) : fromHere;
  if (!attempt.allowed) {
    return Response.json(
      { error: `too many sign-in attempts: try again in ${attempt.retryAfterSeconds} s` },
      { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
    );
  }
  const db = await getDatabase();
  const user = await findUserByEmail(db, parsed.data.email);
  // Same answer and similar time whether the account exists or not.
  const ok = user ? await verifyPassword(parsed.data.password, user.passwordHash) : await verifyPassword("x", "scrypt$16384$8$1$AAAA$AAAA");
  if (!user || !ok) return Response.json({ error: "wrong email or password" }, { status: 401 });
  const membership = await firstMembership(db, user.id);
  if (!membership) return Response.json({ error: "this account belongs to no organisation" }, { status: 403 });
  signInAttempts.reset(attemptKey);
  accountAttempts.reset(account);
  const token = issueToken("tm_session");
  await createSession(db, {
    tokenHash: token.hash,
    userId: user.id,
    organizationId: membership.organizationId,
    expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
  });
  return Response.json(
    { ok: true },
    { headers: { "Set-Cookie": `${SESSION_COOKIE}=${token.secret}; ${sessionCookieAttributes(request, SESSION_DAYS * 86_400)}` } },
  );
}
