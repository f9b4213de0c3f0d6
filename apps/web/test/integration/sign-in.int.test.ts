import { hashPassword, PEER_HEADER } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { createTestOrg, execute, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_COOKIE, signInResponse } from "../../src/server/sign-in-response.ts";

/** `POST /api/auth/sign-in` against real PostgreSQL: guessing is slowed, the owner is never locked out. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  // The counters outlive a run (they are in the database): start from full buckets.
  await execute(db, `DELETE FROM rate_limit_buckets WHERE key LIKE 'sign-in:%'`);
});
afterAll(async () => db.close());

const PASSWORD = "gentle river lantern";

async function owner() {
  const { user } = await createTestOrg(db, "admin");
  await testPrisma(db).user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return user.email;
}

async function signInAudit(email: string) {
  const user = await testPrisma(db).user.findUniqueOrThrow({ where: { email } });
  const entries = await testPrisma(db).auditEntry.findMany({
    where: { targetId: user.id, action: { startsWith: "session." } },
    orderBy: { id: "asc" },
  });
  return entries.map((e) => [e.action, e.actorKind, e.actorUserId === user.id, e.actorName, (e.after as { address: string }).address]);
}

function attempt(email: string, password: string, peer: string, extra: Record<string, string> = {}) {
  return signInResponse(
    db,
    new Request("http://tidemark.test/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: peer, ...extra },
      body: JSON.stringify({ email, password }),
    }),
  );
}

function cookieFrom(response: Response, name: string): string | null {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const [key, value] = (pair ?? "").split("=");
    if (key === name) return value ?? null;
  }
  return null;
}

describe("signing in", () => {
  it("records sign-ins and failed sign-ins in the account's organisation, with the address", async () => {
    const email = await owner();
    expect((await attempt(email, "wrong guess", "192.0.2.10")).status).toBe(401);
    expect((await attempt(email, PASSWORD, "192.0.2.11")).status).toBe(200);
    expect(await signInAudit(email)).toEqual([
      ["session.sign-in-failed", "anonymous", false, "client at 192.0.2.10", "192.0.2.10"],
      ["session.sign-in", "user", true, null, "192.0.2.11"],
    ]);
  });

  it("a forged X-Forwarded-For buys no fresh attempts: the peer address is what counts", async () => {
    const email = await owner();
    const peer = `198.51.100.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 10; i++) {
      expect((await attempt(email, "wrong guess", peer, { "x-forwarded-for": `192.0.2.${i}` })).status).toBe(401);
    }
    const limited = await attempt(email, "wrong guess", peer, { "x-forwarded-for": "192.0.2.99" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("one address spraying many accounts is capped across them", async () => {
    const peer = `198.18.0.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 30; i++) expect((await attempt(`nobody-${i}-${crypto.randomUUID()}@test.invalid`, "guess", peer)).status).toBe(401);
    expect((await attempt(`nobody-last-${crypto.randomUUID()}@test.invalid`, "guess", peer)).status).toBe(429);
  });

  it("guessing from many addresses does not lock out the owner's browser", async () => {
    const email = await owner();
    const ownerPeer = "192.0.2.200";
    const first = await attempt(email, PASSWORD, ownerPeer);
    expect(first.status).toBe(200);
    const device = cookieFrom(first, DEVICE_COOKIE);
    expect(device).toMatch(/^tm_device_/);

    // 100 failures from 10 addresses exhaust the account's budget for unknown browsers…
    for (let i = 0; i < 100; i++) expect((await attempt(email, `guess ${i}`, `100.64.${Math.floor(i / 10)}.9`)).status).toBe(401);
    expect((await attempt(email, PASSWORD, "198.51.100.77")).status).toBe(429);
    // …while the owner's browser still signs in with the right password.
    const again = await attempt(email, PASSWORD, ownerPeer, { cookie: `${DEVICE_COOKIE}=${device}` });
    expect(again.status).toBe(200);
  });
});
