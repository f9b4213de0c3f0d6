import { promWriteResponse } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { createAgent, deploySnapshot, readDeploymentSource } from "@tidemark/db/fleet";
import { setPrometheusCreatesSeries } from "@tidemark/db/metrics";
import { createTestOrg, queryRows, setItemPolicy, testDatabase, testPrisma } from "@tidemark/db/testing";
import { encodeWriteRequest } from "@tidemark/prometheus";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Program, startNodeExporter, startPrometheus } from "../../../scripts/lib/prometheus-programs.ts";
import { RouteServer, waitFor } from "../../../scripts/lib/route-server.ts";
import { drainQueue, Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

let db: Database;
let server: RouteServer;
beforeAll(async () => {
  db = await testDatabase();
  server = new RouteServer((request) =>
    new URL(request.url).pathname === "/api/prom/write"
      ? promWriteResponse(db, request)
      : Promise.resolve(new Response(null, { status: 404 })),
  );
  await server.start();
});
afterAll(async () => {
  await server.stop();
  await db.close();
});

async function newWriter() {
  const { organization } = await createTestOrg(db);
  const { token } = await createAgent(db, organization.id, "prometheus");
  return { organizationId: organization.id, token };
}

function write(token: string | null, body: Uint8Array | string, headers: Record<string, string> = {}, query = "") {
  return fetch(`${server.url}/api/prom/write${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
      "x-prometheus-remote-write-version": "0.1.0",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    // Node's fetch sends any Uint8Array; DOM's BodyInit type wants one over an ArrayBuffer.
    body: body as BodyInit,
  });
}

async function points(organizationId: string, key: string) {
  const rows = await queryRows<{ ts: Date; value: number | null }>(
    db,
    `SELECT p.ts, p.value FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1 AND s.key = $2 ORDER BY p.ts`,
    [organizationId, key],
  );
  return rows.map((r) => ({ ts: r.ts.getTime(), value: r.value }));
}

const T0 = Date.UTC(2026, 10, 24, 3, 0, 0);

describe("POST /api/prom/write", () => {
  it("maps labels to host, service and item, creates them on first sight, and stores a retried request once", async () => {
    const { organizationId, token } = await newWriter();
    const body = encodeWriteRequest([
      {
        labels: { __name__: "node_load1", instance: "db1:9100", job: "node" },
        samples: [
          { ts: T0, value: 0.5 },
          { ts: T0 + 15_000, value: 0.75 },
        ],
      },
      {
        labels: { __name__: "node_cpu_seconds_total", instance: "db1:9100", job: "node", mode: "idle", cpu: "0" },
        samples: [{ ts: T0, value: 12 }],
      },
      { labels: { __name__: "up", instance: "db1:9100", job: "node" }, samples: [{ ts: T0, value: Number.NaN }] },
    ]);
    const first = await write(token, body);
    expect(first.status).toBe(204);
    expect(first.headers.get("x-tidemark-accepted")).toBe("3");
    expect(first.headers.get("x-tidemark-created")).toBe("2");
    const retry = await write(token, body);
    expect(retry.status).toBe(204);
    expect(retry.headers.get("x-tidemark-duplicate")).toBe("true");
    expect(await points(organizationId, "db1:9100-node-node_load1")).toEqual([
      { ts: T0, value: 0.5 },
      { ts: T0 + 15_000, value: 0.75 },
    ]);
    expect(await points(organizationId, "db1:9100-node-node_cpu_seconds_total{cpu=0;mode=idle}")).toEqual([{ ts: T0, value: 12 }]);
    const rows = await queryRows(
      db,
      `SELECT h.name AS host, s.name AS service, s.url, i.name AS item FROM service_items i JOIN services s ON s.id = i.service_id JOIN hosts h ON h.id = s.host_id
       WHERE i.organization_id = $1 ORDER BY i.name`,
      [organizationId],
    );
    expect(rows).toEqual([
      { host: "db1:9100", service: "node", url: "prometheus://remote-write", item: "node_cpu_seconds_total{cpu=0;mode=idle}" },
      { host: "db1:9100", service: "node", url: "prometheus://remote-write", item: "node_load1" },
    ]);
    // The agent that wrote them created them: one audit entry, by the agent, in the creation's transaction.
    const audit = await testPrisma(db).auditEntry.findMany({ where: { organizationId, action: "item.remote-write-create" } });
    expect(audit.map((e) => [e.actorKind, e.actorName, e.actorUserId, (e.after as { items: number }).items])).toEqual([
      ["agent", "prometheus", null, 2],
    ]);
  });

  it("takes the host and service labels from the query, and only stores configured series when creating is off", async () => {
    const { organizationId, token } = await newWriter();
    expect(await setPrometheusCreatesSeries(db, organizationId, false)).toBe(true);
    const body = encodeWriteRequest([
      { labels: { __name__: "queue_depth", cluster: "eu", app: "billing" }, samples: [{ ts: T0, value: 7 }] },
    ]);
    const response = await write(token, body, {}, "?host=cluster&service=app");
    expect(response.status).toBe(204);
    expect(response.headers.get("x-tidemark-unknown-series")).toBe("1");
    expect(response.headers.get("x-tidemark-created")).toBe("0");
    expect(await points(organizationId, "eu-billing-queue_depth")).toEqual([]);
  });

  it("answers what a client got wrong with a 4xx that says what, and stores nothing", async () => {
    const { organizationId, token } = await newWriter();
    const body = encodeWriteRequest([{ labels: { __name__: "x", instance: "h", job: "j" }, samples: [{ ts: T0, value: 1 }] }]);
    const cases: [Response, number, RegExp][] = [
      [await write(null, body), 401, /token/],
      [await write("tm_agent_nope", body), 401, /token/],
      [await write(token, body, { "content-type": "application/json" }), 415, /x-protobuf/],
      [await write(token, body, { "content-encoding": "gzip" }), 415, /snappy/],
      [await write(token, "not snappy at all"), 400, /snappy|WriteRequest/],
      [await write(token, new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])), 413, /max_samples_per_send/],
      [await write(token, body, {}, "?host=bad-label"), 400, /label/],
    ];
    for (const [response, status, message] of cases) {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    expect(await points(organizationId, "h-j-x")).toEqual([]);
  });

  it("refuses samples stamped more than a few minutes ahead of the server's clock, as /api/ingest does, and stores none of the request", async () => {
    const { organizationId, token } = await newWriter();
    const request = (samples: { ts: number; value: number }[]) =>
      new Request(`${server.url}/api/prom/write`, {
        method: "POST",
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy", authorization: `Bearer ${token}` },
        body: encodeWriteRequest([{ labels: { __name__: "skew", instance: "h", job: "j" }, samples }]) as BodyInit,
      });
    const refused = await promWriteResponse(
      db,
      request([
        { ts: T0, value: 1 },
        { ts: T0 + 3_600_000, value: 2 },
      ]),
      { now: T0 },
    );
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: string; issues: { path: string; message: string }[] };
    expect(body.error).toMatch(/future/);
    expect(body.issues).toEqual([
      {
        path: "results.1.ts",
        message: expect.stringMatching(/^h-j-skew: .*60 min ahead of the server's clock.*Prometheus server's clock/),
      },
    ]);
    expect(await points(organizationId, "h-j-skew")).toEqual([]);
    // A little ahead (clock drift) is accepted.
    expect((await promWriteResponse(db, request([{ ts: T0 + 60_000, value: 1 }]), { now: T0 })).status).toBe(204);
    expect(await points(organizationId, "h-j-skew")).toEqual([{ ts: T0 + 60_000, value: 1 }]);
  });
});

const MEMORY_ITEM = "node_memory_MemTotal_bytes";

describe("Debian's Prometheus scraping node_exporter and remote-writing into Tidemark", () => {
  let nodeExporter: Program;
  let prometheus: Program;
  afterAll(async () => {
    await prometheus?.stop();
    await nodeExporter?.stop();
  });

  it("stores the scraped points, evaluates thresholds on them, and loses nothing while Tidemark restarts", async () => {
    const { organizationId, token } = await newWriter();
    nodeExporter = await startNodeExporter();
    prometheus = await startPrometheus(`
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: node
    static_configs: [{ targets: ["127.0.0.1:${nodeExporter.port}"] }]
remote_write:
  - url: ${server.url}/api/prom/write
    authorization: { credentials: ${token} }
    metadata_config: { send: false }
    queue_config: { batch_send_deadline: 1s, min_backoff: 100ms, max_backoff: 1s }
`);
    const key = `127.0.0.1:${nodeExporter.port}-node-${MEMORY_ITEM}`;
    const first = await waitFor("the first remote-written points", async () => (await points(organizationId, key)).at(0));
    const memTotal = first.value as number;
    expect(memTotal).toBeGreaterThan(0);

    // A threshold twice the machine's memory, ">": the measured value is far below it, so CRITICAL.
    const threshold = memTotal * 2;
    const policy: ThresholdPolicy = {
      periods: [
        {
          months: [],
          weeks: [],
          calcMethod: ">",
          warning: 10,
          critical: 30,
          hours: { entries: Array.from({ length: 24 }, () => ({ kind: "constant", value: threshold })), levels: Array(24).fill(null) },
        },
      ],
      holidays: [],
      nullState: "UNKNOWN",
      maxSoft: 2,
      timeZone: "UTC",
    };
    await setItemPolicy(db, organizationId, key, policy);
    // Thresholds are evaluated as deployed: deploy the tuned item, as the dashboard's Deploy does.
    const snapshot = await readDeploymentSource(db, organizationId);
    await deploySnapshot(db, {
      organizationId,
      createdBy: null,
      snapshot,
      message: "threshold for remote-written memory",
      rollbackOf: null,
    });
    const evaluator = new Evaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
    const hard = await waitFor("a hard CRITICAL state on the remote-written series", async () => {
      await drainQueue(evaluator);
      const rows = await queryRows(
        db,
        `SELECT c.state, c.hard, c.threshold, c.value FROM state_changes c JOIN series s ON s.id = c.series_id
         WHERE s.organization_id = $1 AND s.key = $2 AND c.hard AND c.state = 'CRITICAL'`,
        [organizationId, key],
      );
      return rows[0];
    });
    expect(hard).toEqual({ state: "CRITICAL", hard: true, threshold, value: memTotal });

    // Tidemark goes away for a few seconds; Prometheus keeps the samples and sends them when it is back.
    await server.stop();
    const down = Date.now();
    await new Promise((r) => setTimeout(r, 4000));
    await server.start();
    const up = Date.now();
    await waitFor("points scraped after the restart", async () => ((await points(organizationId, key)).at(-1)?.ts ?? 0) > up + 2000);
    const during = (await points(organizationId, key)).filter((p) => p.ts >= down && p.ts <= up);
    // One scrape a second: every scrape of the down time arrived after the restart.
    expect(during.length).toBeGreaterThanOrEqual(Math.floor((up - down) / 1000) - 1);
    const all = await points(organizationId, key);
    const gaps = all.slice(1).map((p, i) => p.ts - (all[i] as { ts: number }).ts);
    expect(Math.max(...gaps)).toBeLessThan(2500);
  });
});
