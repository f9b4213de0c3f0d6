/**
 * Options the worker's node process is started with (they size the heap when the process starts):
 * every launcher passes them — `npm start` (scripts/start.ts), the Docker image (Dockerfile, which
 * cannot import this list and repeats it; scripts/test/compose.int.test.ts holds the two equal)
 * and the benchmarks' worker processes (bench/lib/worker-process.ts).
 *
 * None today. A smaller young generation, which keeps the agent small (apps/agent/src/node-options.ts),
 * makes the worker bigger: its batches' rows and records outlive a 1 MB or 4 MB semi-space, are
 * promoted, and the old generation grows instead (`worker-memory` at 3 000 jobs, issue 22: V8's
 * default 162–172 MB RSS over five cycles; `--max-semi-space-size=1` 143 → 195 MB, rising;
 * `=4` 139–184 MB; the live heap 46–50 MB in every case).
 */
export const WORKER_NODE_OPTIONS: readonly string[] = [];
