import v8 from "node:v8";

/**
 * Engine settings for a small, long-running process, set first thing (main.ts imports this
 * module before any other) so that every way of starting the agent — tsx, the bundle, `npm
 * start` — runs the same engine. Measured at 1000 checks a minute (`npm run bench -- agent`):
 *
 * - No optimizing compilers. The agent's JavaScript is glue between timers, pipes and sockets,
 *   each piece run a few times a second; that never repays TurboFan, whose code and compile-time
 *   memory (kept by the allocator afterwards) cost about 6 MB of the 60 MB budget. CPU stayed the
 *   same; only bursts of work slow down: 1000 pushes of a 500-check configuration take 17 s
 *   instead of 10 (`npm run bench -- reload`), which a real agent, pushed a few times a day, never sees.
 * - Optimize for size: smaller heap growth steps, so the memory reducer collects every couple of
 *   minutes instead of letting old-space garbage pile up between rare full collections.
 */
for (const flag of ["--no-turbofan", "--no-maglev", "--optimize-for-size"]) v8.setFlagsFromString(flag);
