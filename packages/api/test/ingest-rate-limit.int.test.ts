import type { Database } from "@tidemark/db/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * Two web instances (each its own module state and its own pool, sharing the database) count one
 * sender's batches together: the limit is kept in PostgreSQL, not in each process.
 */

const LIMIT = 3;
interface Instance {
  db: Database;
  http: typeof import("../src/http/index.ts");
  fleet: typeof import("@tidemark/db/fleet");
  testing: typeof import("@tidemark/db/testing");
}
const instances: Instance[] = [];

beforeAll(async () => {
  vi.stubEnv("TIDEMARK_INGEST_BATCHES_PER_MINUTE", String(LIMIT));
  for (let i = 0; i < 2; i++) {
    // A fresh module graph: the instance's own limiter state (were it in memory) and its own database handle.
    vi.resetModules();
    const testing = await import("@tidemark/db/testing");
    const [http, fleet] = await Promise.all([import("../src/http/index.ts"), import("@tidemark/db/fleet")]);
    instances.push({ db: await testing.testDatabase(), http, fleet, testing });
  }
});
afterAll(async () => {
  vi.unstubAllEnvs();
  for (const { db } of instances) await db.close();
});

// The limit is spent before the body is read: an empty request is counted (and answered 415).
const request = (path: string, token: string) =>
  new Request(`http://tidemark.test${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` } });

const endpoints = [
  { path: "/api/ingest", respond: (i: Instance, r: Request) => i.http.ingestResponse(i.db, r) },
  { path: "/api/prom/write", respond: (i: Instance, r: Request) => i.http.promWriteResponse(i.db, r) },
];

describe("the ingest rate limit, shared by the web instances", () => {
  it.each(endpoints)("$path: one sender's batches are counted across instances", async ({ path, respond }) => {
    const [a, b] = instances as [Instance, Instance];
    const organizationId = await a.testing.createOrgWithItems(a.db, [{ name: "i" }]);
    const { token } = await a.fleet.createAgent(a.db, organizationId, `agent-${crypto.randomUUID().slice(0, 8)}`);
    const statuses = [];
    for (const instance of [a, b, a]) statuses.push((await respond(instance, request(path, token))).status);
    expect(statuses).toEqual([415, 415, 415]);
    for (const instance of [b, a]) {
      const refused = await respond(instance, request(path, token));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    // Another sender has its own allowance.
    const other = await a.fleet.createAgent(a.db, organizationId, `agent-${crypto.randomUUID().slice(0, 8)}`);
    expect((await respond(b, request(path, other.token))).status).toBe(415);
  });
});
