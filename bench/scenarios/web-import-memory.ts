import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashPassword, issueToken } from "@tidemark/auth";
import { exportBischeck } from "@tidemark/bischeck";
import { createSession, createUser } from "@tidemark/db/organizations";
import superjson from "superjson";
import { ensureWebBuild } from "../../scripts/lib/build.ts";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import { ProcessGroup, waitForHttp } from "../../scripts/lib/processes.ts";
import { webServerCommand } from "../../scripts/lib/web-server.ts";
import { bischeck042Configuration } from "../lib/bischeck-042.ts";
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Resident memory in MB of a process. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 102.4) / 10 : 0;
}

/** The web server's own process: the largest in the tree the launcher started (tsx's launcher is the other). */
function serverPid(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we read.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree.reduce((best, pid) => (rssMb(pid) > rssMb(best) ? pid : best), root);
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
    const { user, organization } = await createUser(db, {
      email: `bench-import-${Date.now()}@tidemark.invalid`,
      name: "Import bench",
      passwordHash: await hashPassword(issueToken("tm_session").secret),
      organizationName: `Import bench ${Date.now()}`,
    });
    if (!organization) throw new Error("createUser made no organisation");
    const session = issueToken("tm_session");
    await createSession(db, {
      tokenHash: session.hash,
      userId: user.id,
      organizationId: organization.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });

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
      const pid = serverPid(launcher.pid as number);
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
        for (let end = Date.now() + seconds * 1000; Date.now() < end; await sleep(SAMPLE_MS)) values.push(rssMb(pid));
        return values;
      };
      const baseline = median(await sample(WINDOW_SECONDS));
      const heapBefore = await heapMb(base);
      log(`web-import-memory: baseline RSS ${baseline} MB (process ${pid})`);

      const files = exportBischeck(bischeck042Configuration(HOSTS));
      const bodyMb = Math.round((files.bischeckXml.length + files.thresholdsXml.length) / 104_857.6) / 10;
      let peak = 0;
      const watch = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
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
