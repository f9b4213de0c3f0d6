import { localTime } from "@tidemark/thresholds";
import type { TimedSample } from "./alerts.ts";
import type { Sample } from "./profile.ts";
import type { Seasonality, Slot } from "./seasonality.ts";

/** The history as the fit reads it: one value per 5-minute bucket, with its local slot. */

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/**
 * The longest silence that is still history. Shorter ones are how the metric reports (hourly
 * results, sensors quiet at night or reporting in bursts) and the weeks ahead will have them too:
 * a budget of alerts a week means calendar weeks. A silence of a day or more is an outage and
 * counts as one day.
 */
const MAX_GAP = DAY;

export interface Observation extends Sample {
  readonly ts: number;
}

/** Weeks of history the observations cover: silences longer than a day are not history beyond their first day. */
export function coveredWeeks(obs: readonly { ts: number }[], bucketMs = 300_000): number {
  let ms = 0;
  for (let i = 0; i < obs.length; i++) {
    const next = obs[i + 1];
    ms += next === undefined ? bucketMs : Math.min(MAX_GAP, Math.max(0, next.ts - (obs[i] as { ts: number }).ts));
  }
  return ms / WEEK;
}

/** Index in a threshold table of 24 hours per day type. */
export function tableIndex(s: Seasonality, slot: Slot): number {
  const t =
    s === "weekday-weekend" ? (slot.dayOfWeek === 1 || slot.dayOfWeek === 7 ? 1 : 0) : s === "hour-of-week" ? slot.dayOfWeek - 1 : 0;
  return t * 24 + slot.hour;
}

/** Each observation with its table index, the next hour's, and the minute fraction between them (the engine's interpolation). */
export function timed(s: Seasonality, timeZone: string, obs: readonly Observation[]): TimedSample[] {
  return obs.map((o) => {
    const cell = tableIndex(s, o.slot);
    const minute = localTime(timeZone, o.ts).minute;
    return { ts: o.ts, value: o.value, cell, nextCell: cell - (cell % 24) + ((cell + 1) % 24), fraction: minute / 60 };
  });
}
