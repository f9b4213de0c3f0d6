import path from "node:path";
import type { AgentConfig, AgentStatus, CheckResult } from "@tidemark/protocol";
import type { Logger } from "pino";
import { loadAppliedConfig, saveAppliedConfig } from "./applied-config.ts";
import { type CheckRunners, createCheckRunners } from "./checks/index.ts";
import { ConfigRejectedError, pollConfig, reportStatus, type ServerEndpoint } from "./config-client.ts";
import { startStatusServer } from "./http-server.ts";
import { createAgentMetrics } from "./metrics.ts";
import { Scheduler } from "./scheduler.ts";
import type { AgentSettings } from "./settings.ts";
import { Shipper } from "./shipper.ts";
import { Spool } from "./spool.ts";

export interface AgentOptions extends AgentSettings {
  log: Logger;
}

const RETRY_MAX_MS = 30_000;

/**
 * The collector: keeps a long-poll open for configurations (works behind NAT, and an agent that
 * was away gets the newest version the moment it is back), applies them without restarting,
 * runs the checks and ships their results.
 */
export class Agent {
  private applied: AgentConfig | null = null;
  private unreported: AgentStatus | null = null;
  private readonly abort = new AbortController();
  private configLoop: Promise<void> | null = null;
  private statusServer: { port: number; close: () => Promise<void> } | null = null;
  private readonly scheduler: Scheduler;
  private readonly runners: CheckRunners;
  private readonly shipper: Shipper;
  private readonly spool: Spool;
  private readonly metrics: ReturnType<typeof createAgentMetrics>;
  private readonly server: ServerEndpoint;
  private readonly appliedFile: string;

  constructor(private readonly options: AgentOptions) {
    this.runners = createCheckRunners({ commands: options.commands, identity: options.checkIdentity });
    this.server = { baseUrl: options.serverUrl.replace(/\/+$/, ""), token: options.token };
    this.appliedFile = path.join(options.stateDir, "applied-config.json");
    this.spool = new Spool(path.join(options.stateDir, "spool"), options.spoolMaxBytes);
    this.shipper = new Shipper({
      ingestUrl: `${this.server.baseUrl}/api/ingest`,
      token: options.token,
      spool: this.spool,
      log: options.log,
      configVersion: () => this.applied?.version ?? null,
      batchSize: options.batchSize,
      flushIntervalMs: options.flushIntervalMs,
    });
    this.metrics = createAgentMetrics({
      counts: () => this.shipper.totals,
      spool: () => ({ batches: this.spool.batches, bytes: this.spool.size }),
      configVersion: () => this.applied?.version ?? null,
      checks: () => this.scheduler.checkCount,
      inMemory: () => this.shipper.inMemory,
    });
    this.scheduler = new Scheduler(
      options.concurrency,
      {
        results: (results: CheckResult[], _check, durationMs) => {
          this.metrics.checkRuns.inc({ status: String(results[0]?.status ?? 3) });
          this.metrics.duration.observe(durationMs / 1000);
          this.shipper.add(results);
        },
        overlap: () => this.metrics.overlaps.inc(),
      },
      (check) => this.runners.runnerFor(check),
    );
  }

  get port(): number | null {
    return this.statusServer?.port ?? null;
  }

  health() {
    return {
      status: "ok",
      agent: this.applied?.agent ?? null,
      configVersion: this.applied?.version ?? null,
      configHash: this.applied?.hash ?? null,
      checks: this.scheduler.checkCount,
      running: this.scheduler.running,
      results: this.shipper.totals,
      inMemory: this.shipper.inMemory,
      spool: { batches: this.spool.batches, bytes: this.spool.size, results: this.spool.results },
      lastSentAt: this.shipper.lastSentAt,
      lastShipError: this.shipper.lastError,
    };
  }

  async start(): Promise<void> {
    const log = this.options.log;
    const saved = loadAppliedConfig(this.appliedFile);
    if (saved) {
      try {
        this.scheduler.apply(saved.checks, saved.timeZone);
        this.applied = saved;
        log.info({ version: saved.version, checks: saved.checks.length }, "running the configuration applied before the restart");
      } catch (error) {
        log.warn({ error: String(error) }, "the saved configuration no longer applies; waiting for the server's");
      }
    }
    if (this.spool.batches > 0) log.info({ batches: this.spool.batches, results: this.spool.results }, "resending spooled results");
    this.shipper.start();
    this.statusServer = await startStatusServer({
      host: this.options.host,
      port: this.options.port,
      registry: this.metrics.registry,
      health: () => this.health(),
    });
    log.info({ port: this.statusServer.port }, `agent status on http://${this.options.host}:${this.statusServer.port} (/health, /metrics)`);
    this.configLoop = this.followConfigs();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.configLoop?.catch(() => undefined);
    this.scheduler.stop();
    this.runners.close();
    await this.shipper.stop();
    await this.statusServer?.close();
  }

  /** Applies a configuration as a whole or not at all; returns the status to report. */
  apply(config: AgentConfig): AgentStatus {
    try {
      this.scheduler.apply(config.checks, config.timeZone);
    } catch (error) {
      this.metrics.applies.inc({ outcome: "failed" });
      const message = error instanceof Error ? error.message : String(error);
      this.options.log.error({ version: config.version, error: message }, "configuration refused; the previous one keeps running");
      return { version: config.version, hash: config.hash, status: "failed", error: message.slice(0, 4000) };
    }
    this.applied = config;
    this.metrics.applies.inc({ outcome: "applied" });
    try {
      saveAppliedConfig(this.appliedFile, config);
    } catch (error) {
      this.options.log.warn({ error: String(error) }, "could not save the applied configuration; a restart will wait for the server");
    }
    this.options.log.info(
      { version: config.version, checks: config.checks.length, hash: config.hash.slice(0, 12) },
      "configuration applied",
    );
    return { version: config.version, hash: config.hash, status: "applied" };
  }

  private async followConfigs(): Promise<void> {
    const { signal } = this.abort;
    let retryMs = 0;
    while (!signal.aborted) {
      try {
        if (this.unreported) {
          await reportStatus(this.server, this.unreported, signal);
          this.unreported = null;
        }
        const config = await pollConfig(this.server, this.applied?.version ?? 0, signal);
        retryMs = 0;
        if (!config) continue;
        this.unreported = this.apply(config);
        await reportStatus(this.server, this.unreported, signal);
        this.unreported = null;
      } catch (error) {
        if (signal.aborted) return;
        retryMs = Math.min(RETRY_MAX_MS, retryMs ? retryMs * 2 : 500);
        const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        this.options.log.warn({ retryInMs: retryMs, rejected: error instanceof ConfigRejectedError }, `configuration channel: ${message}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
      }
    }
  }
}
