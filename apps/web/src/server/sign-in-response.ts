import { clientAddress, hashToken, issueToken, parseTrustedProxies, verifyPassword } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import {
  type BucketDecision,
  createSession,
  findUserByEmail,
  firstMembership,
  isKnownDevice,
  rateLimitBucket,
  recordAudit,
  rememberDevice,
  resetRateLimitBucket,
} from "@tidemark/db/organizations";
import { z } from "zod";
import { readCookie, SESSION_COOKIE, SESSION_DAYS, sessionCookieAttributes } from "./session.ts";

/**
 * Password guessing is slowed by failed attempts counted in PostgreSQL (all web instances agree):
 * - per client address across every account (one address spraying many accounts): 30 per 15 min;
 * - per client address and account: 10 per 15 min;
 * - per account from anywhere (many addresses against one account): 100 per hour, NIST SP 800-63B's
 *   bound — except for a browser that signed in to that account before (its device cookie), which
 *   has a budget of its own (10 per 15 min): an attacker cannot lock the owner out.
 * The client address is the TCP peer unless it is a trusted proxy (TIDEMARK_TRUSTED_PROXIES).
 */
export const SIGN_IN_LIMITS = {
  perAddress: { limit: 30, windowMs: 15 * 60_000 },
  perAddressAndAccount: { limit: 10, windowMs: 15 * 60_000 },
  perAccount: { limit: 100, windowMs: 60 * 60_000 },
  perKnownDevice: { limit: 10, windowMs: 15 * 60_000 },
};

export const DEVICE_COOKIE = "tm_device";
const DEVICE_DAYS = 365;

const signInSchema = z.object({ email: z.string().trim().email().max(320), password: z.string().min(1).max(1024) });

const trustedProxies = parseTrustedProxies(process.env.TIDEMARK_TRUSTED_PROXIES);

function recordSignIn(db: Database, organizationId: string, userId: string, action: string, address: string, actorUserId: string | null) {
  return recordAudit(db, {
    organizationId,
    actorUserId,
    actorKind: actorUserId ? "user" : "anonymous",
    actorName: actorUserId ? null : `client at ${address}`,
    action,
    targetType: "user",
    targetId: userId,
    after: { address },
  });
}

function tooMany(decision: Extract<BucketDecision, { allowed: false }>): Response {
  return Response.json(
    { error: `too many sign-in attempts: try again in ${decision.retryAfterSeconds} s` },
    { status: 429, headers: { "Retry-After": String(decision.retryAfterSeconds) } },
  );
}

/** `POST /api/auth/sign-in` (same-origin checked by the route): a plain Request → Response function of a database. */
export async function signInResponse(db: Database, request: Request): Promise<Response> {
  const parsed = signInSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "enter an email address and a password" }, { status: 400 });
  const account = parsed.data.email.toLowerCase();
  const address = clientAddress(request.headers, trustedProxies);
  const user = await findUserByEmail(db, parsed.data.email);
  const device = readCookie(request.headers.get("cookie"), DEVICE_COOKIE);
  const deviceHash = device ? hashToken(device) : null;
  const knownDevice = user !== null && deviceHash !== null && (await isKnownDevice(db, user.id, deviceHash));

  const buckets = knownDevice
    ? [{ key: `sign-in:device:${deviceHash}`, rule: SIGN_IN_LIMITS.perKnownDevice }]
    : [
        { key: `sign-in:address:${address}`, rule: SIGN_IN_LIMITS.perAddress },
        { key: `sign-in:address-account:${address}|${account}`, rule: SIGN_IN_LIMITS.perAddressAndAccount },
        { key: `sign-in:account:${account}`, rule: SIGN_IN_LIMITS.perAccount },
      ];
  for (const bucket of buckets) {
    const decision = await rateLimitBucket(db, bucket.key, bucket.rule, 0);
    if (!decision.allowed) return tooMany(decision);
  }

  // Same answer and similar time whether the account exists or not.
  const ok = user ? await verifyPassword(parsed.data.password, user.passwordHash) : await verifyPassword("x", "scrypt$16384$8$1$AAAA$AAAA");
  if (!user || !ok) {
    for (const bucket of buckets) await rateLimitBucket(db, bucket.key, bucket.rule, 1);
    // An existing account's organisation learns of the failed attempt (who tried is not known: the address is kept).
    const target = user ? await firstMembership(db, user.id) : null;
    if (user && target) await recordSignIn(db, target.organizationId, user.id, "session.sign-in-failed", address, null);
    return Response.json({ error: "wrong email or password" }, { status: 401 });
  }
  const membership = await firstMembership(db, user.id);
  if (!membership) return Response.json({ error: "this account belongs to no organisation" }, { status: 403 });
  await recordSignIn(db, membership.organizationId, user.id, "session.sign-in", address, user.id);
  await resetRateLimitBucket(db, knownDevice ? `sign-in:device:${deviceHash}` : `sign-in:address-account:${address}|${account}`);

  const token = issueToken("tm_session");
  await createSession(db, {
    tokenHash: token.hash,
    userId: user.id,
    organizationId: membership.organizationId,
    expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
  });
  const headers = new Headers();
  headers.append("Set-Cookie", `${SESSION_COOKIE}=${token.secret}; ${sessionCookieAttributes(request, SESSION_DAYS * 86_400)}`);
  if (!knownDevice) {
    const newDevice = issueToken("tm_device");
    await rememberDevice(db, user.id, newDevice.hash);
    headers.append("Set-Cookie", `${DEVICE_COOKIE}=${newDevice.secret}; ${sessionCookieAttributes(request, DEVICE_DAYS * 86_400)}`);
  }
  return Response.json({ ok: true }, { headers });
}
