import type { State } from "@tidemark/thresholds";
import { worseOf } from "./severity.ts";

/**
 * The exit code the worker gives the results it makes up for missing data (outside Nagios's
 * 0–3, which is all an agent may send): the state is UNKNOWN, hard at once (the N intervals were
 * the wait), and the explanation is the reason.
 */
export const STALE_STATUS = 4;

/**
 * Where an item's state comes from. Bischeck's habit is the threshold (the plugin's exit code is
 * ignored); Nagios's is the plugin's exit code. The default takes the worse of the two, so that
 * neither signal is lost: a plugin exiting CRITICAL raises CRITICAL with or without a threshold,
 * and a threshold breach raises its state even when the plugin says OK.
 */
export const STATE_SOURCES = ["threshold", "plugin", "worst"] as const;
export type StateSource = (typeof STATE_SOURCES)[number];
export const DEFAULT_STATE_SOURCE: StateSource = "worst";

/** Soft results before a plugin-only state turns hard: Bischeck's maxsoft default. */
export const PLUGIN_MAX_SOFT = 3;

const PLUGIN_STATES: readonly State[] = ["OK", "WARNING", "CRITICAL", "UNKNOWN"];

/** The Nagios plugin exit code as a state: 0 OK, 1 WARNING, 2 CRITICAL, anything else UNKNOWN. */
export function pluginState(exitCode: number): State {
  return PLUGIN_STATES[exitCode] ?? "UNKNOWN";
}

/**
 * The item's state from its threshold's (null: the item has no threshold) and its plugin's (null:
 * the result carried no exit code, as calculations do); null when neither says anything.
 * "threshold" never reads the plugin; "plugin" falls back on the threshold when there is no exit code.
 */
export function itemState(source: StateSource, threshold: State | null, plugin: State | null): State | null {
  switch (source) {
    case "threshold":
      return threshold;
    case "plugin":
      return plugin ?? threshold;
    case "worst":
      return threshold === null ? plugin : plugin === null ? threshold : worseOf(threshold, plugin);
  }
}

/** How the plugin's part reads in an explanation, an alert's detail and a notification. */
export function pluginExplanation(exitCode: number, output: string | null | undefined): string {
  const text = output?.trim();
  // A result the worker made up for missing data says why, and nothing about a plugin.
  if (exitCode === STALE_STATUS) return text || "stale";
  return `plugin ${pluginState(exitCode)} (exit ${exitCode})${text ? `: ${text}` : ""}`;
}
