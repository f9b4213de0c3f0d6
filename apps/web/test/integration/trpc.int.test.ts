import type { Database } from "@tidemark/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../../../packages/db/test/helpers.ts";
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
});
