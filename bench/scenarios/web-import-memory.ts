import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exportBischeck } from "@tidemark/bischeck";
import superjson from "superjson";
import { memoryMb, sleep } from "../../apps/agent/bench/loopback.ts";
import { ensureWebBuild, WEB_SERVER_BUNDLE_NAME } from "../../scripts/lib/build.ts";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import { ProcessGroup, waitForHttp } from "../../scripts/lib/processes.ts";
import { webServerCommand } from "../../scripts/lib/web-server.ts";
import { benchUserSession } from "../lib/bench-user.ts";
import { bischeck042Configuration } from "../lib/bischeck-042.ts";
import { findDescendant } from "../lib/server-cpu.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The web process's memory around a large import (issue 22): the web server as every launcher
 * runs it, a signed-in editor, a warm-up (pages, the list, a 10-host import), then BENCH_HOSTS
 * hosts (10 000 by default; Bischeck 0.4.2's shape, two services each) imported as a user does
 * it: bischeck.xml and 24thresholds.xml through `bischeck.previewImport`, then
 * `bischeck.commitImport`. RSS of the web server's process is sampled every 250 ms: the baseline
 * is the median of the 10 s before the import, the figure after it the median of the 10 s that
 * end BENCH_SETTLE_SECONDS (60) after it. Goal: back within 10 % of the baseline.
 */

const HOSTS = Number(process.env.BENCH_HOSTS ?? 10_000);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
const SAMPLE_MS = 250;
const WINDOW_SECONDS = 10;
const GOAL_PERCENT = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** The heap snapshot the probe writes into `dir` (bench/lib/heap-probe.mjs), once it is whole. */
async function heapSnapshotIn(dir: string): Promise<string> {
  for (const end = Date.now() + 120_000; Date.now() < end; await sleep(1_000)) {
    const done = readdirSync(dir).find((name) => name.endsWith(".heapsnapshot"));
    if (done) return path.join(dir, done);
  }
  throw new Error(`no heap snapshot appeared in ${dir}`);
}

/** The web process's own heap figures from its /metrics (prom-client's default Node.js metrics), in MB. */
async function heapMb(base: string): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) =>
    Math.round(Number(text.match(new RegExp(`^tidemark_web_${name} (\\S+)$`, "m"))?.[1] ?? Number.NaN) / 104_857.6) / 10;
  return {
    heapUsed: read("nodejs_heap_size_used_bytes"),
    heapTotal: read("nodejs_heap_size_total_bytes"),
    external: read("nodejs_external_memory_bytes"),
  };
}

export const scenario: BenchScenario = {
  name: "web-import-memory",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("the web-import-memory scenario needs a database");
    const { session } = await benchUserSession(db, "Import");

    await ensureWebBuild(log);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const web = new ProcessGroup((name, code) => log(`${name} exited unexpectedly (code ${code})`));
    // The live heap after a full collection, asked for at the end (bench/lib/heap-probe.mjs, SIGUSR2):
    // it tells objects still held from garbage not yet collected.
    const probeFile = path.join(mkdtempSync(path.join(os.tmpdir(), "tidemark-web-heap-")), "heap.jsonl");
    const command = webServerCommand(port, {
      ...process.env,
      DATABASE_URL: db.url,
      BENCH_HEAP_PROBE_FILE: probeFile,
      NODE_OPTIONS: `--expose-gc --import ${path.join(REPO_ROOT, "bench", "lib", "heap-probe.mjs")}`,
    });
    const launcher = web.start("web", command.command, command.args, command);
    const cookie = `tm_session=${encodeURIComponent(session.secret)}`;
    const call = async (procedure: string, input: unknown) => {
      const response = await fetch(`${base}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(superjson.serialize(input)),
      });
      if (!response.ok) throw new Error(`${procedure} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      return response;
    };
    try {
      await waitForHttp(`${base}/api/health`, 60_000);
      // The node process running the server's bundle (the launcher itself).
      const pid = findDescendant(launcher.pid as number, (cmd) => cmd.includes(WEB_SERVER_BUNDLE_NAME));
      if (pid === null) throw new Error("found no web server among the launcher's processes");
      // Warm-up: every code path the import takes, loaded once (pages, the list, a small import).
      const small = exportBischeck({
        ...bischeck042Configuration(10),
        hosts: bischeck042Configuration(10).hosts.map((h) => ({ ...h, name: `warm-${h.name}` })),
      });
      for (let i = 0; i < 3; i++) {
        await fetch(`${base}/config`, { headers: { cookie } }).then((r) => r.text());
        await fetch(`${base}/api/trpc/dashboard.items?input=${encodeURIComponent(JSON.stringify(superjson.serialize({})))}`, {
          headers: { cookie },
        }).then((r) => r.text());
      }
      await call("bischeck.previewImport", { bischeckXml: small.bischeckXml, thresholdsXml: small.thresholdsXml });
      await call("bischeck.commitImport", { bischeckXml: small.bischeckXml, thresholdsXml: small.thresholdsXml });
      await sleep(5_000);
      const sample = async (seconds: number) => {
        const values: number[] = [];
        for (let end = Date.now() + seconds * 1000; Date.now() < end; await sleep(SAMPLE_MS)) values.push(memoryMb(pid).rss);
        return values;
      };
      const baseline = median(await sample(WINDOW_SECONDS));
      const heapBefore = await heapMb(base);
      log(`web-import-memory: baseline RSS ${baseline} MB (process ${pid})`);

      const files = exportBischeck(bischeck042Configuration(HOSTS));
      const bodyMb = Math.round((files.bischeckXml.length + files.thresholdsXml.length) / 104_857.6) / 10;
      let peak = 0;
      const watch = setInterval(() => {
        peak = Math.max(peak, memoryMb(pid).rss);
      }, SAMPLE_MS);
      const started = Date.now();
      await call("bischeck.previewImport", { bischeckXml: files.bischeckXml, thresholdsXml: files.thresholdsXml });
      const previewMs = Date.now() - started;
      await call("bischeck.commitImport", { bischeckXml: files.bischeckXml, thresholdsXml: files.thresholdsXml });
      const importMs = Date.now() - started;
      clearInterval(watch);
      log(
        `web-import-memory: ${HOSTS} hosts (${bodyMb} MB of XML) previewed in ${previewMs} ms, imported in ${importMs} ms; peak RSS ${peak} MB`,
      );
      await sleep(Math.max(0, SETTLE_SECONDS - WINDOW_SECONDS) * 1000);
      const after = median(await sample(WINDOW_SECONDS));
      const heapAfter = await heapMb(base);
      process.kill(pid, "SIGUSR2");
      await sleep(3_000);
      if (process.env.BENCH_HEAP_SNAPSHOT_DIR)
        log(`web-import-memory: heap snapshot ${await heapSnapshotIn(process.env.BENCH_HEAP_SNAPSHOT_DIR)}`);
      const probe = JSON.parse(readFileSync(probeFile, "utf8").trim().split("\n").at(-1)!) as {
        rss: number;
        heapUsed: number;
        external: number;
      };
      const afterFullGc = {
        rssMb: Math.round(probe.rss / 104_857.6) / 10,
        heapUsedMb: Math.round(probe.heapUsed / 104_857.6) / 10,
        externalMb: Math.round(probe.external / 104_857.6) / 10,
      };
      log(`web-import-memory: after a full collection ${JSON.stringify(afterFullGc)}`);
      const growthPercent = Math.round(((after - baseline) / baseline) * 1000) / 10;
      log(
        `web-import-memory: RSS ${after} MB ${SETTLE_SECONDS} s after the import (${growthPercent >= 0 ? "+" : ""}${growthPercent} % of the baseline); heap ${JSON.stringify(heapBefore)} → ${JSON.stringify(heapAfter)}`,
      );
      return {
        hosts: HOSTS,
        services: HOSTS * 2,
        xmlMb: bodyMb,
        previewMs,
        importMs,
        rssMb: { baseline, peakDuringImport: peak, afterSettling: after },
        heapMb: { baseline: heapBefore, afterSettling: heapAfter },
        afterFullGc,
        settleSeconds: SETTLE_SECONDS,
        growthPercent,
        goals: { backWithin10Percent: growthPercent <= GOAL_PERCENT },
      };
    } finally {
      await web.stopAll();
    }
  },
};
