import { InMemorySeriesData, seriesKey } from "../src/index.ts";

export const NOW = Date.UTC(2024, 0, 15, 12, 0, 0);
export const MINUTE = 60_000;

/** `h-s-i` holds 0..99, one point a minute, the newest (99) at NOW. */
export function minuteSeries(): InMemorySeriesData {
  const data = new InMemorySeriesData();
  for (let i = 0; i < 100; i++) data.append("h-s-i", NOW - (99 - i) * MINUTE, i);
  return data;
}

export function seriesWith(values: readonly (number | null)[], key = "h-s-i"): InMemorySeriesData {
  const data = new InMemorySeriesData();
  // values are given newest first, as [0], [1], …
  for (const [i, v] of values.entries()) data.append(key, NOW - i * MINUTE, v);
  return data;
}

export { seriesKey };
