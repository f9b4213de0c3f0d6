/**
 * Options the worker's node process is started with (they size the heap when the process starts):
 * every launcher passes them — `npm start` (scripts/start.ts), the Docker image (Dockerfile, which
 * cannot import this list and repeats it; scripts/test/compose.int.test.ts holds the two equal)
 * and the benchmarks' worker processes (bench/lib/worker-process.ts).
 *
 * `--optimize-for-size`: V8 grows the heap more sparingly and returns memory sooner. The worker's
 * live heap is under a third of its RSS; the rest was heap V8 kept reserved between batches
 * (heapTotal 70–90 MB for 46–50 MB live). `worker-memory` at 3 000 jobs on the shared 2-core
 * machine (issue 22): RSS 120–134 MB instead of 157–175 MB, for half again the worker's CPU
 * (2.4–2.7 s instead of 1.7–1.8 s a cycle of 6 000 points). A smaller young generation,
 * which keeps the agent small (apps/agent/src/node-options.ts), made the worker bigger instead:
 * its batches outlive a 1 MB or 4 MB semi-space and the old generation grew (143 → 195 MB, 139–184 MB).
 */
export const WORKER_NODE_OPTIONS: readonly string[] = ["--optimize-for-size"];
