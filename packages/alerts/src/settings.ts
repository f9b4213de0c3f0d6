import { z } from "zod";
import { DEFAULT_STALE_AFTER_INTERVALS } from "./freshness.ts";
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from "./machine.ts";
import { DEFAULT_STATE_SOURCE, STATE_SOURCES } from "./plugin-state.ts";

/** Per service item alert settings, as stored on service_items and edited in the dashboard. */
export const itemAlertSettingsSchema = z.object({
  recoveryMarginPercent: z.number().finite().min(0).max(100),
  minimumDurationSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400),
  /** Where the item's state comes from: its threshold, the plugin's exit code, or the worse of both. */
  stateSource: z.enum(STATE_SOURCES).default(DEFAULT_STATE_SOURCE),
  /** No data for this many of the service's intervals makes the item stale (UNKNOWN). */
  staleAfterIntervals: z.number().int().min(1).max(1000).default(DEFAULT_STALE_AFTER_INTERVALS),
});
export type ItemAlertSettings = z.infer<typeof itemAlertSettingsSchema>;

/** The state machine's settings for an item as deployed; an item not deployed (null settings) gets the defaults. */
export function machineSettings(item: { recoveryMarginPercent: number | null; minimumDurationSeconds: number | null }): AlertSettings {
  return {
    ...DEFAULT_ALERT_SETTINGS,
    recoveryMarginPercent: item.recoveryMarginPercent ?? 0,
    minimumDurationMs: (item.minimumDurationSeconds ?? 0) * 1000,
  };
}
