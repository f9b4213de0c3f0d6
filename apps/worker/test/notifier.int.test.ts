import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EvaluationOutcome } from "@tidemark/alerts";
import { applyEvaluations, createWebhook, type DeliveryView, listDeliveries } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";
import { createTestOrg, testDatabase } from "@tidemark/db/testing";
import { destinationPolicy, PUBLIC_ONLY } from "@tidemark/outbound";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotifierLog, startNotifier } from "../src/notifier.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

/** A webhook receiver on 127.0.0.1 that answers with the given statuses in turn (then 200). */
async function receiver(statuses: number[]) {
  const received: { path: string; body: unknown; contentType: string | undefined }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(text), contentType: req.headers["content-type"] });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function captureLog() {
  const lines: { level: string; message: string; event: Record<string, unknown> }[] = [];
  const at = (level: string) => (event: object, message: string) => lines.push({ level, message, event: event as Record<string, unknown> });
  const log: NotifierLog = { info: at("info"), warn: at("warn"), error: at("error") };
  return { log, lines };
}

function outcome(seriesId: number, key: string, state: "OK" | "CRITICAL", ts: Date): EvaluationOutcome {
  return {
    seriesId,
    key,
    ts,
    state,
    hardState: state,
    hard: true,
    value: state === "OK" ? 10 : 99,
    threshold: 20,
    warning: 30,
    critical: 50,
    explanation: `${state}`,
  };
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fastRetry = { baseDelayMs: 100, maxDelayMs: 400, maxAttempts: 4 };
/** The receivers here listen on loopback, which an installation must allow explicitly. */
const LOOPBACK_ALLOWED = destinationPolicy("127.0.0.0/8");

describe("the notifier", () => {
  it("delivers the Alertmanager payload to a real HTTP receiver, retrying 500s with backoff", async () => {
    const hook = await receiver([500, 503]);
    const { organization } = await createTestOrg(db);
    const key = "web07-http-latency";
    const seriesId = (await ensureSeries(db, organization.id, [key])).get(key) as number;
    await createWebhook(db, organization.id, { name: "ops", url: `${hook.url}/alerts?token=secret`, enabled: true });
    await applyEvaluations(db, organization.id, [outcome(seriesId, key, "CRITICAL", new Date())]);
    const { log, lines } = captureLog();
    const stop = startNotifier(db, { log, destinations: LOOPBACK_ALLOWED, pollIntervalMs: 50, retry: fastRetry });
    try {
      await until(async () => (await listDeliveries(db, organization.id, { limit: 5 }))[0]?.status === "delivered");
    } finally {
      await stop();
      await hook.close();
    }
    const [delivery] = await listDeliveries(db, organization.id, { limit: 5 });
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3, lastError: null });
    expect(hook.received).toHaveLength(3);
    expect(hook.received[0]).toMatchObject({ path: "/alerts?token=secret", contentType: "application/json" });
    expect(hook.received[2]!.body).toMatchObject({
      version: "4",
      status: "firing",
      receiver: "ops",
      commonLabels: { host: "web07", severity: "critical" },
    });
    const mine = lines.filter((l) => l.event.delivery === delivery!.id);
    expect(mine.map((l) => `${l.level}:${l.event.attempt}:${l.message}`)).toEqual([
      "warn:1:webhook attempt failed; will retry",
      "warn:2:webhook attempt failed; will retry",
      "info:3:webhook delivered",
    ]);
    expect(mine[0]!.event).toMatchObject({ error: "HTTP 500", retryInMs: 100 });
    expect(mine[1]!.event).toMatchObject({ error: "HTTP 503", retryInMs: 200 });
    // The secret in the URL's query never reaches the log.
    expect(JSON.stringify(lines)).not.toContain("secret");
  });

  it("gives up after the last attempt, and does not retry a 4xx refusal", async () => {
    const hook = await receiver([500, 500, 500, 500, 400]);
    const { organization } = await createTestOrg(db);
    const keys = ["db07-pg-lag", "db08-pg-lag"];
    const ids = await ensureSeries(db, organization.id, keys);
    await createWebhook(db, organization.id, { name: "ops", url: hook.url, enabled: true });
    await applyEvaluations(db, organization.id, [outcome(ids.get(keys[0]!)!, keys[0]!, "CRITICAL", new Date())]);
    const { log } = captureLog();
    const stop = startNotifier(db, { log, destinations: LOOPBACK_ALLOWED, pollIntervalMs: 50, retry: fastRetry });
    try {
      await until(async () => (await listDeliveries(db, organization.id, { limit: 5 }))[0]?.status === "failed");
      await applyEvaluations(db, organization.id, [outcome(ids.get(keys[1]!)!, keys[1]!, "CRITICAL", new Date())]);
      await until(async () => (await listDeliveries(db, organization.id, { limit: 5 })).every((d) => d.status === "failed"));
    } finally {
      await stop();
      await hook.close();
    }
    const deliveries = await listDeliveries(db, organization.id, { limit: 5 });
    expect(deliveries.map((d) => `${d.attempts}:${d.lastError}`).sort()).toEqual(["1:HTTP 400", "4:HTTP 500"]);
    expect(hook.received).toHaveLength(5);
  });

  it("keeps trying an unreachable receiver, recording the network error", async () => {
    const hook = await receiver([]);
    await hook.close();
    const { organization } = await createTestOrg(db);
    const key = "q07-mq-depth";
    const seriesId = (await ensureSeries(db, organization.id, [key])).get(key) as number;
    await createWebhook(db, organization.id, { name: "gone", url: hook.url, enabled: true });
    await applyEvaluations(db, organization.id, [outcome(seriesId, key, "CRITICAL", new Date())]);
    const { log } = captureLog();
    const stop = startNotifier(db, {
      log,
      destinations: LOOPBACK_ALLOWED,
      pollIntervalMs: 50,
      retry: { baseDelayMs: 5_000, maxDelayMs: 60_000, maxAttempts: 4 },
    });
    let seen: DeliveryView | undefined;
    let seenAt = 0;
    try {
      await until(async () => {
        [seen] = await listDeliveries(db, organization.id, { limit: 5 });
        seenAt = Date.now();
        return (seen?.attempts ?? 0) >= 1;
      });
    } finally {
      await stop();
    }
    expect(seen).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|fetch failed/) });
    expect(seen!.nextAttemptAt.getTime()).toBeGreaterThan(seenAt + 4_000);
  });
  it("refuses a receiver on loopback unless the installation allows it: nothing is sent, the delivery fails for good with the reason", async () => {
    const hook = await receiver([]);
    const { organization } = await createTestOrg(db);
    const key = "web08-http-latency";
    const seriesId = (await ensureSeries(db, organization.id, [key])).get(key) as number;
    await createWebhook(db, organization.id, { name: "inside", url: `${hook.url}/alerts`, enabled: true });
    await applyEvaluations(db, organization.id, [outcome(seriesId, key, "CRITICAL", new Date())]);
    const { log } = captureLog();
    const stop = startNotifier(db, { log, destinations: PUBLIC_ONLY, pollIntervalMs: 50, retry: fastRetry });
    try {
      await until(async () => (await listDeliveries(db, organization.id, { limit: 5 }))[0]?.status === "failed");
    } finally {
      await stop();
      await hook.close();
    }
    const [delivery] = await listDeliveries(db, organization.id, { limit: 5 });
    expect(delivery).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) });
    expect(hook.received).toEqual([]);
  });
});
