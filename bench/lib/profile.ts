import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

/**
 * With BENCH_PROFILE set, records a V8 CPU profile of `f` alone (not the scenario's set-up) into
 * bench/results/<name>.cpuprofile, for Chrome DevTools or speedscope: the evidence of what bounds
 * a figure. With BENCH_ALLOCATION_PROFILE set, records where `f` allocates instead, into
 * bench/results/<name>.heapprofile: V8's sampling heap profiler, keeping the samples of objects
 * the collector has freed, so that what a scavenge reclaims shows as well as what stays (the
 * collector's work follows what is allocated). Without either, just runs `f`.
 */
export async function profiled<T>(name: string, f: () => Promise<T>): Promise<T> {
  const cpu = Boolean(process.env.BENCH_PROFILE);
  const allocation = Boolean(process.env.BENCH_ALLOCATION_PROFILE);
  if (!cpu && !allocation) return f();
  const session = new Session();
  session.connect();
  if (cpu) {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 500 });
    await session.post("Profiler.start");
  }
  if (allocation) {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  try {
    return await f();
  } finally {
    if (cpu) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(path.join(resultsDir, `${name}.cpuprofile`), JSON.stringify(profile));
    }
    if (allocation) {
      const { profile } = await session.post("HeapProfiler.stopSampling");
      writeFileSync(path.join(resultsDir, `${name}.heapprofile`), JSON.stringify(profile));
    }
    session.disconnect();
  }
}
