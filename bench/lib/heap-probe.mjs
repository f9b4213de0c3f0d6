/**
 * Preloaded into a measured process (`node --expose-gc --import bench/lib/heap-probe.mjs …`): on
 * SIGUSR2 it collects garbage and appends the live heap and RSS as one JSON line to
 * BENCH_HEAP_PROBE_FILE. The process under measurement carries no benchmark code of its own.
 */
import { appendFileSync } from "node:fs";

const file = process.env.BENCH_HEAP_PROBE_FILE;
if (file && typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    const m = process.memoryUsage();
    appendFileSync(
      file,
      `${JSON.stringify({ at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
    );
  });
}
