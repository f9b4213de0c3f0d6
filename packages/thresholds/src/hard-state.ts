import type { State } from "./policy.ts";

export interface HardStateTrack {
  /** The latest result. */
  readonly state: State;
  /** The state alerts are raised on. */
  readonly hardState: State;
  /** Bischeck's soft count: problem results in a row while soft; 0 when hard. */
  readonly count: number;
}

export const INITIAL_HARD_STATE: HardStateTrack = Object.freeze({ state: "OK", hardState: "OK", count: 0 });

export interface HardStateStep extends HardStateTrack {
  /** True when this result changed the hard state. */
  readonly hardChanged: boolean;
}

/**
 * Bischeck's ServiceState (OKAY_HARD → PROBLEM_SOFT → PROBLEM_HARD). `count` is its soft count:
 * the first problem result after OK is soft 1, each further problem result (WARNING, CRITICAL or
 * UNKNOWN alike: switching between them keeps counting) adds one, and the result that finds the
 * count at `maxSoft` turns hard, i.e. the (maxSoft+1)-th problem in a row. While hard, every
 * problem result is hard at once (a hard WARNING that turns CRITICAL is a hard CRITICAL). An OK
 * result is hard at once and resets the count. `maxSoft` 0 (Tidemark's; Bischeck's files start at
 * 1) makes every result hard at once.
 */
export function nextHardState(prev: HardStateTrack, newState: State, maxSoft = 3): HardStateStep {
  let hardState: State;
  let count: number;
  if (newState === "OK") {
    hardState = "OK";
    count = 0;
  } else if (prev.hardState !== "OK" || maxSoft <= 0) {
    hardState = newState;
    count = 0;
  } else if (prev.state === "OK" || prev.count === 0) {
    hardState = "OK";
    count = 1;
  } else if (prev.count >= maxSoft) {
    hardState = newState;
    count = 0;
  } else {
    hardState = "OK";
    count = prev.count + 1;
  }
  return { state: newState, hardState, count, hardChanged: hardState !== prev.hardState };
}
