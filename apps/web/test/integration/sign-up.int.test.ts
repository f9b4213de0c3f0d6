import { issueToken, PEER_HEADER } from "@tidemark/auth";
import { connectDatabase, type Database } from "@tidemark/db/client";
import { createInvitation } from "@tidemark/db/organizations";
import { createTestOrg, execute, queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_UP_LIMIT, signUpResponse } from "../../src/server/sign-up-response.ts";

/** `POST /api/auth/sign-up` against real PostgreSQL, as two web instances sharing it would answer. */

let first: Database;
let second: Database;
beforeAll(async () => {
  first = await testDatabase();
  // A second, independent connection pool: another web instance on the same database.
  second = await connectDatabase(first.url, { max: 2, applicationName: "tidemark-test-second-instance" });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

function signUp(db: Database, peer: string, email = `new-${crypto.randomUUID()}@test.invalid`, invitation?: string) {
  const account = { name: "New Person", email, password: "gentle river lantern" };
  return signUpResponse(
    db,
    new Request("http://tidemark.test/api/auth/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: peer },
      body: JSON.stringify(invitation ? { ...account, invitation } : { ...account, organizationName: "Fresh Org" }),
    }),
  );
}

/** A pending invitation to a fresh organisation for `email`: its link's token. */
async function invite(email: string): Promise<string> {
  const { organization, user } = await createTestOrg(first);
  const token = issueToken("tm_invite");
  const expiresAt = new Date(Date.now() + 60 * 60_000);
  await createInvitation(first, {
    organizationId: organization.id,
    email,
    role: "viewer",
    tokenHash: token.hash,
    createdBy: user.id,
    expiresAt,
  });
  return token.secret;
}

const randomPeer = () => `203.0.113.${Math.floor(Math.random() * 250)}`;

describe("signing up", () => {
  it("counts sign-ups per address in the database: a second web instance refuses what the first used up", async () => {
    const peer = randomPeer();
    await execute(first, `DELETE FROM rate_limit_buckets WHERE key = $1`, [`sign-up:address:${peer}`]);
    for (let i = 0; i < SIGN_UP_LIMIT.limit; i++) expect((await signUp(i % 2 ? second : first, peer)).status).toBe(201);
    const refused = await signUp(second, peer);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signUp(first, peer)).status).toBe(429);
    // The database is what both consult (one process's memory would be shared by the two above as well):
    // the used-up bucket is a row there, and forgetting it frees the address on either instance.
    const rows = await queryRows<{ tokens: number }>(first, `SELECT tokens FROM rate_limit_buckets WHERE key = $1`, [
      `sign-up:address:${peer}`,
    ]);
    expect(rows[0]?.tokens).toBeLessThan(1);
    await execute(first, `DELETE FROM rate_limit_buckets WHERE key = $1`, [`sign-up:address:${peer}`]);
    expect((await signUp(second, peer)).status).toBe(201);
  });

  it("does not count accepting an invitation: a team joining from one used-up address still gets in", async () => {
    const peer = randomPeer();
    const key = `sign-up:address:${peer}`;
    await execute(first, `DELETE FROM rate_limit_buckets WHERE key = $1`, [key]);
    for (let i = 0; i < SIGN_UP_LIMIT.limit; i++) expect((await signUp(first, peer)).status).toBe(201);
    expect((await signUp(first, peer)).status).toBe(429);
    const invitedEmail = `invited-${crypto.randomUUID()}@test.invalid`;
    expect((await signUp(second, peer, invitedEmail, await invite(invitedEmail))).status).toBe(201);
    // An invitation for someone else, or a made-up one, is an ordinary sign-up: still refused here.
    const other = await invite(`someone-else-${crypto.randomUUID()}@test.invalid`);
    expect((await signUp(first, peer, `intruder-${crypto.randomUUID()}@test.invalid`, other)).status).toBe(429);
    expect((await signUp(first, peer, `intruder-${crypto.randomUUID()}@test.invalid`, issueToken("tm_invite").secret)).status).toBe(429);
    await execute(first, `DELETE FROM rate_limit_buckets WHERE key = $1`, [key]);
  });

  it("records the new organisation's creation once, by the new account", async () => {
    const email = `audited-${crypto.randomUUID()}@test.invalid`;
    const response = await signUp(first, randomPeer(), email);
    expect(response.status).toBe(201);
    const { organizationId } = (await response.json()) as { organizationId: string };
    const user = await testPrisma(first).user.findUniqueOrThrow({ where: { email } });
    const entries = await testPrisma(first).auditEntry.findMany({ where: { organizationId } });
    expect(entries.map((e) => [e.action, e.actorKind, e.actorUserId])).toEqual([["organization.create", "user", user.id]]);
  });
});
