import type { State } from "./policy.ts";

export interface HardStateTrack {
  /** The latest result. */
  readonly state: State;
  /** The state alerts are raised on. */
  readonly hardState: State;
  /** How many consecutive results have equalled `state`. */
  readonly count: number;
}

export const INITIAL_HARD_STATE: HardStateTrack = Object.freeze({ state: "OK", hardState: "OK", count: 0 });

export interface HardStateStep extends HardStateTrack {
  /** True when this result changed the hard state. */
  readonly hardChanged: boolean;
}

/**
 * Soft/hard states. A non-OK result becomes hard after `maxSoft` consecutive identical results
 * (also when moving between WARNING and CRITICAL: each must repeat maxSoft times). A recovery to
 * OK is hard at once, as Nagios treats recoveries, so an alert closes on the first OK result.
 */
export function nextHardState(prev: HardStateTrack, newState: State, maxSoft = 3): HardStateStep {
  const count = newState === prev.state ? prev.count + 1 : 1;
  const hard = newState === "OK" || count >= maxSoft;
  const hardState = hard ? newState : prev.hardState;
  return { state: newState, hardState, count, hardChanged: hardState !== prev.hardState };
}
