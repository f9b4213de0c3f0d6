import { ingestResponse } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { createAgent } from "@tidemark/db/fleet";
import { createOrgWithItems, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** `POST /api/ingest` as the route serves it, against real PostgreSQL. */

let db: Database;
let token: string;
let organizationId: string;
beforeAll(async () => {
  db = await testDatabase();
  organizationId = await createOrgWithItems(db, [{ name: "i" }]);
  token = (await createAgent(db, organizationId, `agent-${crypto.randomUUID().slice(0, 8)}`)).token;
});
afterAll(async () => db.close());

const NOW = Date.UTC(2026, 5, 1, 12);

function post(body: string): Request {
  return new Request("http://tidemark.test/api/ingest", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
}

const batch = (results: unknown[]) => JSON.stringify({ batchId: `b-${crypto.randomUUID()}`, results });

describe("ingest refuses what it must not store, with a reason", () => {
  it("refuses points stamped more than five minutes ahead of the server's clock, and stores none of the batch", async () => {
    const response = await ingestResponse(
      db,
      post(
        batch([
          { key: "h-s-i", ts: NOW, value: 1 },
          { key: "h-s-i", ts: Date.UTC(2099, 0, 1), value: 2 },
        ]),
      ),
      { now: NOW },
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toMatch(/future/);
    expect(body.issues).toEqual([
      { path: "results.1.ts", message: expect.stringMatching(/2099-01-01.*ahead of the server's clock.*agent's clock/) },
    ]);
    const rows = await queryRows(
      db,
      `SELECT count(*)::int AS n FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1 AND p.ts >= $2`,
      [organizationId, new Date(NOW)],
    );
    expect(rows[0].n).toBe(0);
  });

  it("accepts a point a little ahead (clock drift)", async () => {
    const response = await ingestResponse(db, post(batch([{ key: "h-s-i", ts: NOW + 60_000, value: 1 }])), { now: NOW });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ accepted: 1 });
  });

  it.each([
    ["a NUL in a key", `{"key":"h-s-i\\u0000","ts":${NOW},"value":1}`, "results.0.key", /NUL/],
    ["a lone surrogate in a key", `{"key":"h-s-\\ud800","ts":${NOW},"value":1}`, "results.0.key", /surrogate/],
    ["a lone surrogate in the output", `{"key":"h-s-i","ts":${NOW},"value":1,"output":"\\udc00 x"}`, "results.0.output", /surrogate/],
    ["a NUL in a field's name", `{"key":"h-s-i","ts":${NOW},"value":1,"x\\u0000":1}`, "results.0.x\u0000", /NUL/],
  ])("answers %s with 400 and where it is", async (_, result, path, reason) => {
    const response = await ingestResponse(db, post(`{"batchId":"b-${crypto.randomUUID()}","results":[${result}]}`), { now: NOW });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.issues[0].path).toBe(path);
    expect(body.error).toMatch(reason);
    expect(body.error).not.toMatch(/prisma|invalid byte sequence/i);
  });
});
