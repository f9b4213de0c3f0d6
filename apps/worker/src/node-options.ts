/**
 * Options the worker's node process is started with (they size the heap when the process starts):
 * every launcher passes them — `npm start` (scripts/start.ts), the Docker image (Dockerfile, which
 * cannot import this list and repeats it; scripts/test/compose.int.test.ts holds the two equal)
 * and the benchmarks' worker processes (bench/lib/worker-process.ts).
 *
 * The trade is RSS against CPU, measured with `worker-memory` (issue 22; docs/scaling.md,
 * "Twenty-third round"):
 *
 * - `--heap-growing-percent=50`: after a full collection V8 lets the old generation grow by half
 *   of what is live before the next one (its own factor, up to 4× on a small heap, left 157–175 MB
 *   of RSS at 3 000 jobs for a 46–50 MB live heap). `--optimize-for-size`, which this replaced,
 *   puts V8's heap controller in its conservative mode (growth of at most 30 %, in steps from
 *   2 MB) and keeps the young generation at 1 MB, so that much of a batch is promoted: at 30 000
 *   jobs (210 MB live) the worker spent more time collecting than working, 21–22 % of a core
 *   against 10 % now; at 3 000 jobs the two do not differ (about 3 %).
 * - `--max-semi-space-size=8`: a 16 MB young generation, half node's default, in which a batch's
 *   garbage still dies young; RSS at 3 000 jobs stays inside its 150 MB.
 */
export const WORKER_NODE_OPTIONS: readonly string[] = ["--heap-growing-percent=50", "--max-semi-space-size=8"];
