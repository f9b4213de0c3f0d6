import type { RemoteSeries } from "./remote-write.ts";
import { type MappedSeries, mapSeries, type SeriesMapping } from "./series-mapping.ts";

/** The range Tidemark's ingest accepts (2000-01-01 … 2100-01-01), as for its own agents. */
const MIN_TS = 946_684_800_000;
const MAX_TS = 4_102_444_800_000;

export interface RemoteWriteResults {
  /** What `ingestBatch` stores: one result per sample. */
  results: { key: string; ts: number; value: number | null }[];
  /** The distinct series the request names, for create-on-first-sight. */
  series: MappedSeries[];
  /** NaN samples (Prometheus' staleness markers): a series ended, nothing was measured. */
  staleMarkers: number;
  /** Samples outside 2000–2100, dropped. */
  outOfRange: number;
}

/**
 * Remote-written series as ingest results. NaN is Prometheus' staleness marker and is skipped;
 * ±Inf is stored as a missing value (the policy's null state), as the agent does for a check
 * without a number. Two series mapping to the same key (labels that differ only in forbidden
 * characters) keep the last sample per timestamp.
 */
export function remoteWriteResults(input: readonly RemoteSeries[], mapping?: SeriesMapping): RemoteWriteResults {
  const byKey = new Map<string, MappedSeries>();
  const points = new Map<string, { key: string; ts: number; value: number | null }>();
  let staleMarkers = 0;
  let outOfRange = 0;
  for (const s of input) {
    const mapped = mapSeries(s.labels, mapping);
    for (const sample of s.samples) {
      if (Number.isNaN(sample.value)) {
        staleMarkers++;
        continue;
      }
      if (!(sample.ts >= MIN_TS && sample.ts <= MAX_TS)) {
        outOfRange++;
        continue;
      }
      byKey.set(mapped.key, mapped);
      points.set(`${mapped.key}\u0000${sample.ts}`, {
        key: mapped.key,
        ts: sample.ts,
        value: Number.isFinite(sample.value) ? sample.value : null,
      });
    }
  }
  return { results: [...points.values()], series: [...byKey.values()], staleMarkers, outOfRange };
}
