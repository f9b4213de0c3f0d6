import type { AgentConfig } from "@tidemark/protocol";
import { type AgentRuntime, BenchServer, cpuSeconds, memoryMb, sleep, spawnBenchAgent } from "../../apps/agent/bench/loopback.ts";
import { ensureSystemPackages, MONITORING_PLUGINS } from "../../scripts/lib/system-packages.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The agent scenario (issue 6): one agent process running 1000 shell checks a minute with
 * Debian's check_dummy (each a real plugin process), shipping every result to a loopback server.
 * Measured on the agent's own process: CPU (user + system) over a full minute after warm-up,
 * and RSS. Goals: < 2 % of one core and < 60 MB.
 */

const CHECKS = 1000;
const WARMUP_MS = 20_000;
const WINDOW_MS = 60_000;
const PLUGIN = "/usr/lib/nagios/plugins/check_dummy";

function benchConfig(): AgentConfig {
  return {
    version: 1,
    hash: "0".repeat(64),
    agent: "bench",
    checks: Array.from({ length: CHECKS }, (_, i) => ({
      id: `host${i}-dummy`,
      host: `host${i}`,
      service: "dummy",
      url: "shell://localhost",
      schedules: ["1M"],
      timeoutMs: 10_000,
      items: [{ name: "value", key: `host${i}-dummy-value`, exec: `${PLUGIN} 0 "OK | value=${i}"` }],
    })),
  };
}

async function measure(runtime: AgentRuntime, log: (m: string) => void) {
  const config = benchConfig();
  const server = new BenchServer((after) => (after < 1 ? config : null));
  const agent = await spawnBenchAgent(await server.start(), runtime);
  try {
    const pid = agent.child.pid as number;
    log(`${runtime}: agent pid ${pid}, warming up ${WARMUP_MS / 1000} s, then measuring ${WINDOW_MS / 1000} s`);
    await sleep(WARMUP_MS);
    const cpu0 = cpuSeconds(pid);
    const results0 = server.results;
    const rssSamples: number[] = [];
    const end = Date.now() + WINDOW_MS;
    while (Date.now() < end) {
      await sleep(5000);
      rssSamples.push(memoryMb(pid).rss);
    }
    const cpu = cpuSeconds(pid) - cpu0;
    const cpuPercent = Math.round((cpu / (WINDOW_MS / 1000)) * 10_000) / 100;
    const rssMax = Math.max(...rssSamples);
    return {
      resultsShippedInWindow: server.results - results0,
      configsApplied: server.applied,
      agentCpuSeconds: Math.round(cpu * 100) / 100,
      agentCpuPercentOfCore: cpuPercent,
      agentRssMaxInWindowMb: rssMax,
      agentPeakRssMb: memoryMb(pid).peak,
      goals: { cpuUnder2Percent: cpuPercent < 2, rssUnder60Mb: rssMax < 60 },
    };
  } finally {
    await agent.stop();
    await server.stop();
  }
}

export const scenario: BenchScenario = {
  name: "agent",
  needsDatabase: false,
  async run({ log }) {
    // Every check runs Debian's check_dummy: installed before the measurement when missing.
    await ensureSystemPackages([MONITORING_PLUGINS], log);
    return {
      checks: CHECKS,
      schedule: "1M",
      windowSeconds: WINDOW_MS / 1000,
      bundled: await measure("bundle", log),
      underTsx: await measure("tsx", log),
    };
  },
};
