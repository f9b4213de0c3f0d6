import { splitSeriesKey } from "@tidemark/expr";
import { matchesGlob } from "./silences.ts";
import type { TimelineLane } from "./timeline.ts";

/** A name filter as typed: a glob when it has a `*`, otherwise "contains"; empty or null filters nothing. */
export function nameFilterGlob(text: string | null): string | null {
  if (text === null || text === "") return null;
  return text.includes("*") ? text : `*${text}*`;
}

/**
 * The timeline's candidate lanes: the series whose host and service pass the filters, named from
 * their keys (a key that is not host-service-item is all host). Keyed by series id.
 */
export function timelineLanes(
  series: readonly { seriesId: number; key: string }[],
  filters: { host: string | null; service: string | null },
): Map<number, TimelineLane> {
  const host = nameFilterGlob(filters.host);
  const service = nameFilterGlob(filters.service);
  const lanes = new Map<number, TimelineLane>();
  for (const s of series) {
    const names = splitSeriesKey(s.key) ?? { host: s.key, service: "", item: "" };
    if (host && !matchesGlob(host, names.host)) continue;
    if (service && !matchesGlob(service, names.service)) continue;
    lanes.set(s.seriesId, { seriesId: s.seriesId, key: s.key, ...names });
  }
  return lanes;
}

/** The lanes that show an alert, by host, service and item. */
export function shownLanes(lanes: ReadonlyMap<number, TimelineLane>, alerts: readonly { seriesId: number }[]): TimelineLane[] {
  const shown = new Set(alerts.map((a) => a.seriesId));
  return [...lanes.values()]
    .filter((l) => shown.has(l.seriesId))
    .sort((x, y) => x.host.localeCompare(y.host) || x.service.localeCompare(y.service) || x.item.localeCompare(y.item));
}
