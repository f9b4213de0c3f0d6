import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

const EVENT_LOOP_SAMPLE_MS = 100;

/** What the agent exposes on /metrics. Gauges read their values when scraped. */
export function createAgentMetrics(read: {
  counts: () => { sent: number; spooled: number; rejected: number; dropped: number };
  spool: () => { batches: number; bytes: number };
  configVersion: () => number | null;
  checks: () => number;
  inMemory: () => number;
}) {
  const registry = new Registry();
  // prom-client samples event-loop delay every 10 ms by default: a hundred wake-ups a second,
  // 0.8 % of a core on an otherwise idle agent. Every 100 ms still catches the blocked loops worth knowing about.
  collectDefaultMetrics({ register: registry, prefix: "tidemark_agent_", eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const checkRuns = new Counter({
    name: "tidemark_agent_check_runs_total",
    help: "Check runs by Nagios status of their first item (0 OK … 3 UNKNOWN)",
    labelNames: ["status"],
    registers: [registry],
  });
  const overlaps = new Counter({
    name: "tidemark_agent_check_overlaps_total",
    help: "Runs skipped because the previous run of the same check had not finished",
    registers: [registry],
  });
  const duration = new Histogram({
    name: "tidemark_agent_check_duration_seconds",
    help: "Check run duration",
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30],
    registers: [registry],
  });
  const applies = new Counter({
    name: "tidemark_agent_config_applies_total",
    help: "Configurations received, by outcome",
    labelNames: ["outcome"],
    registers: [registry],
  });
  new Gauge({
    name: "tidemark_agent_results_total",
    help: "Results by fate: sent (acknowledged), spooled (written to disk), rejected (refused by the server), dropped (spool full)",
    labelNames: ["fate"],
    registers: [registry],
    collect() {
      for (const [fate, n] of Object.entries(read.counts())) this.set({ fate }, n);
    },
  });
  new Gauge({
    name: "tidemark_agent_spool_batches",
    help: "Batches waiting in the disk spool",
    registers: [registry],
    collect() {
      this.set(read.spool().batches);
    },
  });
  new Gauge({
    name: "tidemark_agent_spool_bytes",
    help: "Bytes in the disk spool",
    registers: [registry],
    collect() {
      this.set(read.spool().bytes);
    },
  });
  new Gauge({
    name: "tidemark_agent_results_in_memory",
    help: "Results buffered in memory, not yet sent nor spooled",
    registers: [registry],
    collect() {
      this.set(read.inMemory());
    },
  });
  new Gauge({
    name: "tidemark_agent_config_version",
    help: "Applied configuration version (0: none yet)",
    registers: [registry],
    collect() {
      this.set(read.configVersion() ?? 0);
    },
  });
  new Gauge({
    name: "tidemark_agent_checks",
    help: "Checks in the applied configuration",
    registers: [registry],
    collect() {
      this.set(read.checks());
    },
  });
  return { registry, checkRuns, overlaps, duration, applies };
}
export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
