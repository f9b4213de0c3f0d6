import type { AgentConfig } from "@tidemark/protocol";
import { BenchServer, memoryMb, sleep, spawnBenchAgent } from "../../apps/agent/bench/loopback.ts";
import { ensureSystemPackages, MONITORING_PLUGINS } from "../../scripts/lib/system-packages.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The reload scenario (issue 6): 1000 configuration pushes to one agent process, each a new
 * version with 500 checks on interval and cron schedules (ids change every push, so every
 * schedule is replaced). Bischeck leaked on every reload until it was fixed; the goal is RSS growth
 * under 5 % from after the first 100 pushes to the end.
 *
 * A garbage-collected process's RSS saws up and down by tens of percent while it works, so one
 * sample at push 100 against one at the end says where each landed on the saw, not whether
 * anything leaked (two runs of one build measured −4 % and +1 % that way). The agent's RSS is therefore
 * sampled all along, and the highest RSS of pushes 101–200 is compared with the highest of the
 * last 100: a leak raises every later peak. Alongside, the lowest V8 heap in use seen in each
 * window (close to what survives a collection) tells a JavaScript leak from allocator high-water marks.
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

interface Window {
  rssMaxMb: number;
  heapUsedMinMb: number;
}

export const scenario: BenchScenario = {
  name: "reload",
  needsDatabase: false,
  async run({ log }) {
    // Every check runs Debian's check_dummy: installed before the measurement when missing.
    await ensureSystemPackages([MONITORING_PLUGINS], log);
    const server = new BenchServer((after) => (after < PUSHES ? configFor(after + 1) : null));
    const agent = await spawnBenchAgent(await server.start(), "bundle");
    try {
      const pid = agent.child.pid as number;
      const started = Date.now();
      const windows: { baseline: Window; end: Window } = {
        baseline: { rssMaxMb: 0, heapUsedMinMb: Number.POSITIVE_INFINITY },
        end: { rssMaxMb: 0, heapUsedMinMb: Number.POSITIVE_INFINITY },
      };
      let samples = 0;
      for (;;) {
        const pushed = server.applied + server.failed;
        const window =
          pushed > BASELINE_AT && pushed <= 2 * BASELINE_AT ? windows.baseline : pushed > PUSHES - BASELINE_AT ? windows.end : null;
        if (window) {
          window.rssMaxMb = Math.max(window.rssMaxMb, memoryMb(pid).rss);
          if (samples++ % 2 === 0) window.heapUsedMinMb = Math.min(window.heapUsedMinMb, (await agent.heapMb()).used);
        }
        if (pushed >= PUSHES) break;
        if (Date.now() - started > 600_000) throw new Error(`only ${server.applied} of ${PUSHES} pushes applied in 10 minutes`);
        await sleep(100);
      }
      const seconds = (Date.now() - started) / 1000;
      const growth = Math.round(((windows.end.rssMaxMb - windows.baseline.rssMaxMb) / windows.baseline.rssMaxMb) * 10_000) / 100;
      log(
        `RSS peak after push ${BASELINE_AT}: ${windows.baseline.rssMaxMb} MB, in the last ${BASELINE_AT} pushes: ${windows.end.rssMaxMb} MB`,
      );
      await sleep(2000);
      const idle = memoryMb(pid);
      return {
        runtime: "bundle",
        pushes: PUSHES,
        checksPerConfig: CHECKS,
        applied: server.applied,
        failed: server.failed,
        seconds: Math.round(seconds * 10) / 10,
        pushesPerSecond: Math.round((PUSHES / seconds) * 10) / 10,
        rssPeakPushes101To200Mb: windows.baseline.rssMaxMb,
        rssPeakLast100PushesMb: windows.end.rssMaxMb,
        heapUsedFloorPushes101To200Mb: windows.baseline.heapUsedMinMb,
        heapUsedFloorLast100PushesMb: windows.end.heapUsedMinMb,
        rssIdle2sAfterLastPushMb: idle.rss,
        peakRssMb: idle.peak,
        rssGrowthPercent: growth,
        goals: { rssGrowthUnder5Percent: growth < 5 },
      };
    } finally {
      await agent.stop();
      await server.stop();
    }
  },
};
