/**
 * What the evaluator needs from history. The worker, the preview and the tests each implement it
 * (InMemorySeriesData is the in-process one). `series` is a key built by `seriesKey(host, service,
 * item)`. A stored null, a missing index and a point outside the history are all `null`; values
 * that are not finite numbers are treated as null by the evaluator.
 */
export interface SeriesData {
  /** Whether the series exists at all; unknown series are an error unless the caller says otherwise. */
  has(series: string): boolean;
  /** Index 0 is the newest point. */
  byIndex(series: string, index: number): number | null;
  /** Exactly `to − from + 1` values for indices from..to (newest first), null where there is no point. */
  byIndexRange(series: string, from: number, to: number): readonly (number | null)[];
  /** The value of the point whose timestamp is closest to `atMs`; null when the series is empty. */
  nearest(series: string, atMs: number): number | null;
  /**
   * Values of the points with `toMs ≤ ts ≤ fromMs` (`fromMs` is the newer instant), newest first;
   * `toMs` null means down to the oldest point. An implementation may stop after `max + 1` values:
   * the evaluator only needs to know that the list is too long.
   */
  timeRange(series: string, fromMs: number, toMs: number | null, max?: number): readonly (number | null)[];
}
