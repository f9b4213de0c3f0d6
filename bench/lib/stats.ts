/** Percentiles of a sample, nearest-rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summarize(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

/** CPU milliseconds this process spent while `f` ran. */
export async function cpuMs<T>(f: () => Promise<T>): Promise<{ result: T; cpuMs: number; wallMs: number }> {
  const start = process.cpuUsage();
  const t0 = performance.now();
  const result = await f();
  const used = process.cpuUsage(start);
  return { result, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - t0 };
}
