import { connectDatabase, type Database } from "@tidemark/db/client";
import { rateLimitBucket, resetRateLimitBucket } from "@tidemark/db/organizations";
import { testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** PostgreSQL-kept token buckets (sign-in, sign-up) under attempts that arrive at the same moment. */

const RULE = { limit: 3, windowMs: 60 * 60_000 };
let instances: Database[] = [];
beforeAll(async () => {
  const first = await testDatabase();
  // Four web instances, each with its own pool: the attempts really run on separate connections.
  instances = [
    first,
    ...(await Promise.all([1, 2, 3].map(() => connectDatabase(first.url, { max: 4, applicationName: "tidemark-test-rate" })))),
  ];
});
afterAll(async () => {
  await Promise.all(instances.map((db) => db.close()));
});

describe("rateLimitBucket", () => {
  it("lets exactly `limit` of many simultaneous attempts through, on every round", async () => {
    for (let round = 0; round < 5; round++) {
      const key = `test:simultaneous:${crypto.randomUUID()}`;
      const now = new Date();
      const decisions = await Promise.all(
        Array.from({ length: 16 }, (_, i) => rateLimitBucket(instances[i % instances.length]!, key, RULE, 1, now)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(RULE.limit);
      await resetRateLimitBucket(instances[0]!, key);
    }
  });

  it("looks without spending (cost 0), and refills at limit per window", async () => {
    const key = `test:refill:${crypto.randomUUID()}`;
    const t0 = new Date("2026-11-24T10:00:00Z");
    const db = instances[0]!;
    for (let i = 0; i < RULE.limit; i++) expect((await rateLimitBucket(db, key, RULE, 1, t0)).allowed).toBe(true);
    const refused = await rateLimitBucket(db, key, RULE, 0, t0);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 20 * 60 });
    // A third of the window later one token is back, and looking twice does not spend it.
    const later = new Date(t0.getTime() + RULE.windowMs / RULE.limit);
    expect((await rateLimitBucket(db, key, RULE, 0, later)).allowed).toBe(true);
    expect((await rateLimitBucket(db, key, RULE, 0, later)).allowed).toBe(true);
    expect((await rateLimitBucket(db, key, RULE, 1, later)).allowed).toBe(true);
    expect((await rateLimitBucket(db, key, RULE, 1, later)).allowed).toBe(false);
    await resetRateLimitBucket(db, key);
  });
});
