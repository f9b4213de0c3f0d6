import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { type CheckResult, ingestBatchSchema } from "@tidemark/protocol";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Shipper } from "../../src/shipper.ts";
import { Spool } from "../../src/spool.ts";

const log = pino({ level: "silent" });
const result = (n: number): CheckResult => ({ key: "h-s-i", ts: 1_700_000_000_000 + n, value: n, status: 0 });

/** A stand-in ingest endpoint that can be told to fail, remembering batches the way the server does (once per id). */
class Receiver {
  mode: "ok" | "down" | "reject" = "ok";
  readonly batches = new Map<string, number[]>();
  received: number[] = [];
  private server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (this.mode === "down") return res.writeHead(503).end('{"error":"restarting"}');
      if (this.mode === "reject") return res.writeHead(400).end('{"error":"bad"}');
      const batch = ingestBatchSchema.parse(JSON.parse(body));
      const duplicate = this.batches.has(batch.batchId);
      if (!duplicate) {
        this.batches.set(
          batch.batchId,
          batch.results.map((r) => r.value as number),
        );
        this.received.push(...batch.results.map((r) => r.value as number));
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ batchId: batch.batchId, accepted: duplicate ? 0 : batch.results.length, duplicate, unknownSeries: [] }));
    });
  });
  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/ingest`;
  }
  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-spool-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(condition: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function shipper(url: string, spool: Spool, batchSize = 10) {
  return new Shipper({
    ingestUrl: url,
    token: "tm_agent_x",
    spool,
    log,
    configVersion: () => 3,
    batchSize,
    flushIntervalMs: 50,
    maxBackoffMs: 100,
  });
}

describe("Shipper", () => {
  it("ships in batches by size and by time, stamped with the config version", async () => {
    const receiver = new Receiver();
    const s = shipper(await receiver.listen(), new Spool(tempDir(), 1e6));
    s.start();
    s.add(Array.from({ length: 25 }, (_, i) => result(i)));
    await until(() => s.totals.sent === 25);
    expect([...receiver.batches.values()].map((b) => b.length)).toEqual([10, 10, 5]);
    expect(s.totals).toEqual({ sent: 25, spooled: 0, rejected: 0, dropped: 0 });
    await s.stop();
    await receiver.close();
  });

  it("spools while the server is down and resends everything in order when it returns", async () => {
    const receiver = new Receiver();
    const dir = tempDir();
    const spool = new Spool(dir, 1e6);
    const s = shipper(await receiver.listen(), spool);
    receiver.mode = "down";
    s.start();
    for (let i = 0; i < 50; i++) {
      s.add([result(i)]);
      await new Promise((r) => setTimeout(r, 2));
    }
    await until(() => spool.batches >= 3);
    expect(readdirSync(dir).filter((f) => f.endsWith(".json")).length).toBe(spool.batches);
    receiver.mode = "ok";
    await until(() => receiver.received.length === 50);
    expect(receiver.received).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // The receiver has the last batch a moment before its acknowledgement reaches the shipper.
    await until(() => spool.batches === 0 && s.totals.sent === 50);
    expect(s.totals.spooled).toBeGreaterThan(0);
    await s.stop();
    await receiver.close();
  });

  it("keeps results across an agent restart: spooled on stop, resent by the next process", async () => {
    const receiver = new Receiver();
    const url = await receiver.listen();
    const dir = tempDir();
    receiver.mode = "down";
    const first = shipper(url, new Spool(dir, 1e6));
    first.start();
    first.add(Array.from({ length: 7 }, (_, i) => result(i)));
    await first.stop();
    expect(first.totals.sent).toBe(0);
    receiver.mode = "ok";
    const second = shipper(url, new Spool(dir, 1e6));
    second.start();
    second.add([result(7)]);
    await until(() => receiver.received.length === 8);
    expect(receiver.received).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await second.stop();
    await receiver.close();
  });

  it("bounds the spool, dropping the oldest batches and counting the results lost", async () => {
    const dir = tempDir();
    const spool = new Spool(dir, 1500);
    for (let i = 0; i < 20; i++) spool.append({ batchId: `batch-${i}-xxxx`, results: [result(i), result(i + 100)] });
    expect(spool.size).toBeLessThanOrEqual(1500);
    expect(spool.dropped).toBe(2 * (20 - spool.batches));
    expect(spool.dropped).toBeGreaterThan(0);
    const reopened = new Spool(dir, 1500);
    expect(reopened.batches).toBe(spool.batches);
    expect(reopened.peek()?.batchId).toBe(`batch-${20 - spool.batches}-xxxx`);
  });

  it("does not resend a batch the server refused as invalid", async () => {
    const receiver = new Receiver();
    const s = shipper(await receiver.listen(), new Spool(tempDir(), 1e6));
    receiver.mode = "reject";
    s.start();
    s.add([result(1)]);
    await until(() => s.totals.rejected === 1);
    receiver.mode = "ok";
    s.add([result(2)]);
    await until(() => receiver.received.length === 1);
    expect(receiver.received).toEqual([2]);
    await s.stop();
    await receiver.close();
  });
});
