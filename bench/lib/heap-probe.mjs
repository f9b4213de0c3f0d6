/**
 * Preloaded into a measured process (`node --expose-gc --import bench/lib/heap-probe.mjs …`): on
 * SIGUSR2 it collects garbage and appends the live heap and RSS as one JSON line to
 * BENCH_HEAP_PROBE_FILE, and with BENCH_HEAP_SNAPSHOT_DIR set also writes a heap snapshot there
 * (what holds the memory: open it in Chrome's DevTools, or `npx tsx bench/heap-retainers.ts`).
 * The process under measurement carries no benchmark code of its own.
 */
import { appendFileSync, renameSync } from "node:fs";
import path from "node:path";
import { writeHeapSnapshot } from "node:v8";

const file = process.env.BENCH_HEAP_PROBE_FILE;
if (file && typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    const m = process.memoryUsage();
    appendFileSync(
      file,
      `${JSON.stringify({ at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
    );
    const snapshots = process.env.BENCH_HEAP_SNAPSHOT_DIR;
    if (snapshots) {
      // Named once it is whole: whoever waits for it sees no half-written file.
      const name = path.join(snapshots, `${process.pid}-${Date.now()}.heapsnapshot`);
      renameSync(writeHeapSnapshot(`${name}.partial`), name);
    }
  });
}
