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
  /**
   * Values for the indices from..to that exist (newest first): fewer than `to − from + 1` when the
   * history is shorter, as Bischeck's cache returns them (`to` may be far past the oldest point).
   */
  byIndexRange(series: string, from: number, to: number): readonly (number | null)[];
  /**
   * Bischeck's getByTime: the value at the stored index nearest to `atMs`; null when `atMs` is
   * newer than the newest point or older than the oldest. On a tie the older point wins.
   */
  nearest(series: string, atMs: number): number | null;
  /**
   * Bischeck's time range: each end maps to its nearest stored index and the values between
   * (both included) come newest first. `fromMs` (the newer end) null is index 0; a `fromMs`
   * outside the history gives []. `toMs` null, or older than the oldest point, is the oldest
   * index. An implementation may stop after `max + 1` values: the evaluator only needs to know
   * that the list is too long.
   */
  timeRange(series: string, fromMs: number | null, toMs: number | null, max?: number): readonly (number | null)[];
  /** For ols: the index nearest to `atMs` (rules of `nearest`), null outside the history. */
  indexAt?(series: string, atMs: number): number | null;
  /** For ols: timestamps and values of the indices from..to that exist, newest first. */
  pointsByIndexRange?(
    series: string,
    from: number,
    to: number,
  ): { readonly ts: readonly number[]; readonly values: readonly (number | null)[] };
}
