import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

/**
 * With BENCH_PROFILE set, records a V8 CPU profile of `f` alone (not the scenario's set-up) into
 * bench/results/<name>.cpuprofile, for Chrome DevTools or speedscope: the evidence of what bounds
 * a figure. Without it, just runs `f`.
 */
export async function profiled<T>(name: string, f: () => Promise<T>): Promise<T> {
  if (!process.env.BENCH_PROFILE) return f();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  try {
    return await f();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(path.join(resultsDir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
