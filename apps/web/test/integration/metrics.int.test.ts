import { promWriteResponse } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { createAgent } from "@tidemark/db/fleet";
import { createTestOrg, testDatabase } from "@tidemark/db/testing";
import { encodeWriteRequest } from "@tidemark/prometheus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The remote-write handler itself is tested in apps/worker/test/remote-write.int.test.ts, end to end. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db.close();
});

const T0 = Date.UTC(2026, 10, 24, 3, 0, 0);

describe("the web process's /metrics", () => {
  it("counts remote-written points and measures the route", async () => {
    const { observability } = await import("../../src/server/observability.ts");
    const { GET } = await import("../../src/app/metrics/route.ts");
    const { countIngestedPoints, instrumented } = await import("../../src/server/observability.ts");
    const { organization } = await createTestOrg(db);
    const { token } = await createAgent(db, organization.id, "prometheus");
    const measured = instrumented("/api/prom/write", (request: Request) =>
      promWriteResponse(db, request, { pointsStored: countIngestedPoints("prometheus") }),
    );
    const before = (await observability.ingestPoints.get()).values.find((v) => v.labels.source === "prometheus")?.value ?? 0;
    const body = encodeWriteRequest([
      {
        labels: { __name__: "m", instance: "h", job: "j" },
        samples: [
          { ts: T0, value: 1 },
          { ts: T0 + 1000, value: 2 },
        ],
      },
    ]);
    const response = await measured(
      new Request("http://x/api/prom/write", {
        method: "POST",
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy", authorization: `Bearer ${token}` },
        body,
      }),
    );
    expect(response.status).toBe(204);
    const failing = instrumented("/api/broken", async () => {
      throw new Error("boom");
    });
    expect((await failing(new Request("http://x/api/broken"))).status).toBe(500);
    const text = await (await GET(new Request("http://x/metrics"))).text();
    expect(text).toContain(`tidemark_web_ingest_points_total{source="prometheus"} ${before + 2}`);
    expect(text).toMatch(/tidemark_web_request_duration_seconds_count\{route="\/api\/prom\/write",method="POST",status="204"\} \d+/);
    expect(text).toMatch(/tidemark_web_errors_total\{route="\/api\/broken"\} 1/);
  });
});
