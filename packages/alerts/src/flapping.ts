import type { State } from "@tidemark/thresholds";

/** Nagios keeps the last 21 results, i.e. 20 possible changes. */
export const FLAP_HISTORY = 21;

export interface FlapSettings {
  /** Start flapping at or above this percent state change. */
  high: number;
  /** Stop flapping below this percent. */
  low: number;
}

export const DEFAULT_FLAP_SETTINGS: FlapSettings = Object.freeze({ high: 50, low: 25 });

/**
 * Nagios' weighted percent state change over the results given oldest first (at most the last
 * FLAP_HISTORY are used): a change between results i−1 and i weighs from 0.75 (oldest) to 1.25
 * (newest), and the sum is taken over the 20 possible changes, so recent changes count more and a
 * short history cannot look like flapping.
 */
export function percentStateChange(states: readonly State[]): number {
  const recent = states.slice(-FLAP_HISTORY);
  const possible = FLAP_HISTORY - 1;
  // Align to the newest end so that the newest change always gets the highest weight.
  const offset = FLAP_HISTORY - recent.length;
  let weighted = 0;
  for (let i = 1; i < recent.length; i++) {
    if (recent[i] === recent[i - 1]) continue;
    const x = i + offset;
    weighted += 0.75 + ((x - 1) * (1.25 - 0.75)) / (FLAP_HISTORY - 2);
  }
  return (weighted * 100) / possible;
}

/** Flapping with hysteresis: starts at `high`, stops only below `low`. */
export function nextFlapping(wasFlapping: boolean, percent: number, settings: FlapSettings = DEFAULT_FLAP_SETTINGS): boolean {
  if (percent >= settings.high) return true;
  if (percent < settings.low) return false;
  return wasFlapping;
}
