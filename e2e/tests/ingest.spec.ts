import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { withDatabase } from "./database";

/** An agent of the demo organisation, created straight in the database (agents have their own UI tests). */
async function createAgent(): Promise<string> {
  const token = `tm_agent_${randomBytes(32).toString("base64url")}`;
  await withDatabase((c) =>
    c.query(
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash)
       SELECT id, $1, $2, $3 FROM organizations WHERE slug = 'acme'`,
      [`e2e-${randomBytes(4).toString("hex")}`, token.slice(0, 16), createHash("sha256").update(token).digest("hex")],
    ),
  );
  return token;
}

test.describe("ingest endpoint", () => {
  let token: string;
  test.beforeAll(async () => {
    token = await createAgent();
  });

  test("refuses missing or unknown tokens", async ({ request }) => {
    const none = await request.post("/api/ingest", { data: {} });
    expect(none.status()).toBe(401);
    const wrong = await request.post("/api/ingest", { data: {}, headers: { authorization: "Bearer tm_agent_nope" } });
    expect(wrong.status()).toBe(401);
    expect((await wrong.json()).error).toMatch(/agent token/);
  });

  test("refuses malformed and oversized batches with a reason", async ({ request }) => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const notJson = await request.post("/api/ingest", { headers, data: Buffer.from("{not json") });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).error).toMatch(/not valid JSON/);

    const badShape = await request.post("/api/ingest", {
      headers,
      data: { batchId: "x", results: [{ key: "a", ts: "yesterday", value: "high" }] },
    });
    expect(badShape.status()).toBe(400);
    const body = await badShape.json();
    expect(body.error).toMatch(/ingest schema/);
    expect(body.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["batchId", "results.0.ts", "results.0.value"]),
    );

    const huge = await request.post("/api/ingest", { headers, data: Buffer.alloc(5 * 1024 * 1024, 120) });
    expect(huge.status()).toBe(413);
  });

  test("stores a batch once, reports unknown series, and the worker evaluates it", async ({ request }) => {
    const headers = { authorization: `Bearer ${token}` };
    const batchId = `e2e-${randomBytes(6).toString("hex")}`;
    const ts = Date.now() - 1000;
    const data = {
      batchId,
      results: [
        { key: "cache01-redis-memory", ts, value: 2.5, status: 0 },
        { key: "nosuch-service-item", ts, value: 1 },
      ],
    };
    const first = await request.post("/api/ingest", { headers, data });
    expect(first.status()).toBe(200);
    expect(await first.json()).toEqual({ batchId, accepted: 1, duplicate: false, unknownSeries: ["nosuch-service-item"] });
    const retry = await request.post("/api/ingest", { headers, data });
    expect(await retry.json()).toEqual({ batchId, accepted: 0, duplicate: true, unknownSeries: ["nosuch-service-item"] });

    // The demo agents keep shipping this series every 30 s, so the state may already stand on a
    // later point of theirs: the worker has evaluated ours once its state reaches our instant.
    await expect
      .poll(
        () =>
          withDatabase(async (c) => {
            const { rows } = await c.query(
              `SELECT st.ts FROM item_states st JOIN series s ON s.id = st.series_id WHERE s.key = 'cache01-redis-memory'`,
            );
            return rows[0]?.ts?.getTime() ?? 0;
          }),
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(ts);
    const stored = await withDatabase(async (c) => {
      const { rows } = await c.query(
        `SELECT p.value FROM metric_points p JOIN series s ON s.id = p.series_id
          WHERE s.key = 'cache01-redis-memory' AND p.ts = $1`,
        [new Date(ts)],
      );
      return rows.map((r) => Number(r.value));
    });
    expect(stored).toEqual([2.5]);
  });
});
