import type { AgentConfig } from "@tidemark/protocol";
import { BenchServer, memoryMb, sleep, spawnBenchAgent } from "../../apps/agent/bench/loopback.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The reload scenario (issue 6): 1000 configuration pushes to one agent process, each a new
 * version with 500 checks on interval and cron schedules (ids change every push, so every
 * timer is replaced). Bischeck leaked on every reload until it was fixed; the goal is RSS growth
 * under 5 % from after the first 100 pushes to the end.
 */

const PUSHES = 1000;
const BASELINE_AT = 100;
const CHECKS = 500;

function configFor(version: number): AgentConfig {
  return {
    version,
    hash: version.toString(16).padStart(64, "0"),
    agent: "bench",
    checks: Array.from({ length: CHECKS }, (_, i) => ({
      id: `host${i}-svc${version % 7}`,
      host: `host${i}`,
      service: `svc${version % 7}`,
      url: "shell://localhost",
      schedules: i % 2 === 0 ? ["1H"] : ["0 0 3 ? * MON"],
      timeoutMs: 10_000,
      items: [{ name: "value", key: `host${i}-svc${version % 7}-value`, exec: "/usr/lib/nagios/plugins/check_dummy 0" }],
    })),
  };
}

export const scenario: BenchScenario = {
  name: "reload",
  needsDatabase: false,
  async run({ log }) {
    const server = new BenchServer((after) => (after < PUSHES ? configFor(after + 1) : null));
    const agent = await spawnBenchAgent(await server.start(), "bundle");
    try {
      const pid = agent.child.pid as number;
      const started = Date.now();
      let baseline: number | null = null;
      while (server.applied + server.failed < PUSHES) {
        if (baseline === null && server.applied >= BASELINE_AT) {
          // Let the collector settle so the baseline is not taken mid-garbage.
          await sleep(2000);
          baseline = memoryMb(pid).rss;
          log(`baseline RSS after ${server.applied} pushes: ${baseline} MB`);
        }
        if (Date.now() - started > 600_000) throw new Error(`only ${server.applied} of ${PUSHES} pushes applied in 10 minutes`);
        await sleep(200);
      }
      const seconds = (Date.now() - started) / 1000;
      await sleep(2000);
      const end = memoryMb(pid);
      const growth = baseline ? Math.round(((end.rss - baseline) / baseline) * 10_000) / 100 : Number.NaN;
      return {
        runtime: "bundle",
        pushes: PUSHES,
        checksPerConfig: CHECKS,
        applied: server.applied,
        failed: server.failed,
        seconds: Math.round(seconds * 10) / 10,
        pushesPerSecond: Math.round((PUSHES / seconds) * 10) / 10,
        rssBaselineMb: baseline,
        rssEndMb: end.rss,
        peakRssMb: end.peak,
        rssGrowthPercent: growth,
        goals: { rssGrowthUnder5Percent: growth < 5 },
      };
    } finally {
      await agent.stop();
      await server.stop();
    }
  },
};
