import type { Database } from "@tidemark/db/client";
import { type HistoryRequest, loadRecentPoints, type Transaction } from "@tidemark/db/evaluation";
import type { OrganizationConfig } from "./organization-cache.ts";
import { capacityFor, type SeriesWindow } from "./series-window.ts";

/**
 * Brings the window up to date for the `series` (their ids by key, as the caller found them in
 * `config.seriesIdByKey`; none: not a series of the configuration), in one round trip: series
 * never held are loaded back as far as their need; held ones catch up with points stored since
 * (by other workers, or by calculations), unless `heldIsCurrent` says so. `untilBySeriesId`
 * excludes points about to be appended in time order by the caller, so that `[0]` is always the
 * point being evaluated.
 */
export async function refreshWindow(
  db: Database | Transaction,
  window: SeriesWindow,
  config: OrganizationConfig,
  series: ReadonlyMap<string, number | undefined>,
  untilBySeriesId: Map<number, number>,
  /** Whether every point of the series stored since the window's last refresh came through this worker: then only new series load. */
  heldIsCurrent: (seriesId: number) => boolean = () => false,
): Promise<void> {
  const requests: HistoryRequest[] = [];
  const keysById = new Map<number, string>();
  const olderAsked: string[] = [];
  series.forEach((seriesId, key) => {
    const need = config.needs.get(key);
    if (seriesId === undefined || !need) return;
    const empty = window.hold(key, need);
    // Only series asked for: a batch's held and current series (most of them) cost no entry.
    if (empty || !heldIsCurrent(seriesId)) {
      keysById.set(seriesId, key);
      // A first load takes the newest `capacity` points (enough for the need's count and, at up to
      // one point a second, its look-back); later loads only what arrived since.
      // A series held without points (made-up stale results are not data) loads like a new one.
      const newest = window.newestTs(key) ?? Number.NEGATIVE_INFINITY;
      const sinceMs = empty || !Number.isFinite(newest) ? 0 : newest;
      requests.push({ seriesId, sinceMs, limit: capacityFor(need), untilMs: untilBySeriesId.get(seriesId) ?? null });
    }
    // Points taken back had pushed older ones out of a full window: those come back in the same round trip.
    const older = window.olderMissing(key);
    if (older) {
      keysById.set(seriesId, key);
      requests.push({ seriesId, sinceMs: 0, limit: older.count, untilMs: older.beforeTs });
      olderAsked.push(key);
    }
  });
  const loaded = await loadRecentPoints(db, requests);
  for (const [seriesId, newestFirst] of loaded) {
    const key = keysById.get(seriesId)!;
    for (let i = newestFirst.length - 1; i >= 0; i--) window.add(key, newestFirst[i]!.ts, newestFirst[i]!.value);
  }
  for (const key of olderAsked) window.olderLoaded(key);
}
