import { issueToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { changeMemberRole, createSession, deleteSession, removeMember } from "@tidemark/db/organizations";
import { createTestOrg, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trpcResponse } from "../../src/server/trpc-response.ts";
import { MAX_TRPC_BATCH } from "../../src/trpc/batch.ts";

/** `/api/trpc` as the route serves it, against real PostgreSQL. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  trpcResponse(db, new Request(`http://tidemark.test/api/trpc/${path}`, { headers }));
const batchOf = (n: number) => `${Array.from({ length: n }, () => "session.me").join(",")}?batch=1`;

describe("the tRPC endpoint", () => {
  it(`answers a batch of at most ${MAX_TRPC_BATCH} calls and refuses a larger one with 400`, async () => {
    const allowed = await get(batchOf(MAX_TRPC_BATCH));
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toHaveLength(MAX_TRPC_BATCH);
    const refused = await get(batchOf(200));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/exceeds maximum size/);
  });

  it.each(["tm_session=%E0%A4%A", "tm_session=%"])("treats a malformed session cookie (%s) as signed out", async (cookie) => {
    const me = await get("session.me", { cookie });
    expect(me.status).toBe(200);
    expect((await me.json()).result.data.json).toBeNull();
    expect((await get("session.organizations", { cookie })).status).toBe(401);
  });

  it("applies a sign-out, a role change and a removed membership on the very next request: sessions are not cached", async () => {
    const { organization, user } = await createTestOrg(db, "editor");
    const signIn = async (expiresInMs: number) => {
      const token = issueToken("tm_session");
      await createSession(db, {
        tokenHash: token.hash,
        userId: user.id,
        organizationId: organization.id,
        expiresAt: new Date(Date.now() + expiresInMs),
      });
      return { hash: token.hash, cookie: `tm_session=${token.secret}` };
    };
    const me = async (cookie: string) =>
      ((await (await get("session.me", { cookie })).json()) as { result: { data: { json: { role: string } | null } } }).result.data.json;
    const [first, second, expired] = [await signIn(3_600_000), await signIn(3_600_000), await signIn(-1_000)];
    expect(await me(first.cookie)).toMatchObject({ userId: user.id, organizationId: organization.id, role: "editor" });
    expect(await me(expired.cookie)).toBeNull();

    await deleteSession(db, first.hash);
    expect(await me(first.cookie)).toBeNull();
    expect(await me(second.cookie)).toMatchObject({ role: "editor" });

    await changeMemberRole(db, organization.id, user.id, "viewer");
    expect(await me(second.cookie)).toMatchObject({ role: "viewer" });

    await removeMember(db, organization.id, user.id);
    expect(await me(second.cookie)).toBeNull();
    expect((await get("dashboard.overview", { cookie: second.cookie })).status).toBe(401);
  });
});
