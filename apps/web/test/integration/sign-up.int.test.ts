import { PEER_HEADER } from "@tidemark/auth";
import { connectDatabase, type Database } from "@tidemark/db/client";
import { execute, queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
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

function signUp(db: Database, peer: string, email = `new-${crypto.randomUUID()}@test.invalid`) {
  return signUpResponse(
    db,
    new Request("http://tidemark.test/api/auth/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: peer },
      body: JSON.stringify({ name: "New Person", email, password: "gentle river lantern", organizationName: "Fresh Org" }),
    }),
  );
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
