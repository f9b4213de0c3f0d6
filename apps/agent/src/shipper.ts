import { randomUUID } from "node:crypto";
import type { CheckResult, IngestBatch } from "@tidemark/protocol";
import type { Logger } from "pino";
import { type ServerAnswer, serverRequest } from "./server-request.ts";
import type { Spool } from "./spool.ts";

export interface ShipperOptions {
  /** `POST` target, e.g. http://server/api/ingest. */
  ingestUrl: string;
  token: string;
  spool: Spool;
  log: Logger;
  /** The configuration version the agent runs, stamped on each batch. */
  configVersion: () => number | null;
  batchSize?: number;
  flushIntervalMs?: number;
  /** Batches kept in memory while sending is healthy; beyond that they go to the spool. */
  maxMemoryBatches?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
}

export interface ShipperCounts {
  /** Results the server acknowledged. */
  sent: number;
  /** Results written to the spool because the server could not take them. */
  spooled: number;
  /** Results refused by the server as invalid (4xx): resending would never succeed. */
  rejected: number;
  /** Results lost because the spool bound was hit. */
  dropped: number;
}

type Outcome = "sent" | "rejected" | "retry";

/**
 * Batches results (by size and time) and ships them in order. A batch keeps its id across
 * retries, so the server stores it once. While the server is unreachable batches go to the disk
 * spool, which is drained oldest first with exponential backoff when it returns.
 */
export class Shipper {
  private buffer: CheckResult[] = [];
  private readonly memory: IngestBatch[] = [];
  private readonly counts = { sent: 0, spooled: 0, rejected: 0 };
  private flushTimer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private backoffMs = 0;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxMemoryBatches: number;
  private readonly maxBackoffMs: number;
  private readonly requestTimeoutMs: number;
  lastError: string | null = null;
  lastSentAt: number | null = null;

  constructor(private readonly options: ShipperOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 2000;
    this.maxMemoryBatches = options.maxMemoryBatches ?? 20;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  }

  get totals(): ShipperCounts {
    return { ...this.counts, dropped: this.options.spool.dropped };
  }

  /** Results waiting in memory (buffer and formed batches), not yet on disk nor acknowledged. */
  get inMemory(): number {
    return this.buffer.length + this.memory.reduce((n, b) => n + b.results.length, 0);
  }

  start(): void {
    this.flushTimer = setInterval(() => this.flush(), this.flushIntervalMs);
    this.loop = this.run();
  }

  add(results: readonly CheckResult[]): void {
    for (const r of results) {
      this.buffer.push(r);
      if (this.buffer.length >= this.batchSize) this.flush();
    }
  }

  /** Forms a batch from what is buffered and wakes the sender. */
  flush(): void {
    if (this.buffer.length === 0) return;
    const batch: IngestBatch = { batchId: randomUUID(), configVersion: this.options.configVersion(), results: this.buffer };
    this.buffer = [];
    if (this.options.spool.batches > 0 || this.memory.length >= this.maxMemoryBatches) this.toSpool(batch);
    else this.memory.push(batch);
    this.wake?.();
  }

  /**
   * Stops shipping: what is buffered is sent if the server answers right away, and spooled
   * otherwise, so a restart of the agent loses nothing either.
   */
  async stop(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = null;
    this.flush();
    this.stopping = true;
    this.wake?.();
    await this.loop;
    while (this.memory.length > 0) {
      const batch = this.memory[0] as IngestBatch;
      const outcome = this.options.spool.batches === 0 ? await this.send(batch) : "retry";
      this.memory.shift();
      if (outcome === "retry") this.toSpool(batch);
    }
  }

  private toSpool(batch: IngestBatch): void {
    this.options.spool.append(batch);
    this.counts.spooled += batch.results.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const fromSpool = this.options.spool.peek();
      const batch = fromSpool ?? this.memory[0];
      if (!batch) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = null;
        continue;
      }
      const outcome = await this.send(batch);
      if (outcome === "retry") {
        // Keep order: everything formed after a failed batch waits behind it on disk.
        for (const b of this.memory.splice(0)) this.toSpool(b);
        this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs ? this.backoffMs * 2 : 500);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.backoffMs);
          this.wake = () => {
            if (!this.stopping) return;
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        continue;
      }
      this.backoffMs = 0;
      if (fromSpool) this.options.spool.removeOldest();
      else this.memory.shift();
    }
  }

  private async send(batch: IngestBatch): Promise<Outcome> {
    let response: ServerAnswer;
    try {
      response = await serverRequest(this.options.ingestUrl, {
        method: "POST",
        token: this.options.token,
        json: JSON.stringify(batch),
        timeoutMs: this.requestTimeoutMs,
      });
    } catch (error) {
      return this.failed(
        `ingest unreachable: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      );
    }
    const { text } = response;
    if (response.ok) {
      this.counts.sent += batch.results.length;
      this.lastSentAt = Date.now();
      this.lastError = null;
      return "sent";
    }
    // The server (or a proxy in front) is unwell, or asks to slow down: try again later.
    if (response.status >= 500 || response.status === 408 || response.status === 429 || response.status === 401) {
      return this.failed(`ingest answered ${response.status}: ${text.slice(0, 200)}`);
    }
    this.counts.rejected += batch.results.length;
    this.options.log.error(
      { status: response.status, batchId: batch.batchId, results: batch.results.length, body: text.slice(0, 500) },
      "ingest refused a batch; it is not resent",
    );
    return "rejected";
  }

  private failed(message: string): Outcome {
    if (this.lastError !== message) this.options.log.warn({ spooled: this.options.spool.batches }, message);
    this.lastError = message;
    return "retry";
  }
}
