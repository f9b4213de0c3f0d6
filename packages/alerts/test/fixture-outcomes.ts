import type { State } from "@tidemark/thresholds";
import type { EvaluationOutcome } from "../src/index.ts";

/** A value per state against the fixtures' threshold: T = 100 with `<`, W at 110, C at 130. */
export const FIXTURE_VALUES: Record<State, number> = { OK: 90, WARNING: 120, CRITICAL: 150, UNKNOWN: 0 };

/**
 * A hard result of `state` against the fixtures' threshold, as the worker hands it to the alert
 * machine: shared by the browser tests' seed and the timeline benchmarks.
 */
export function hardOutcome(seriesId: number, key: string, ts: number, state: State): EvaluationOutcome {
  const value = FIXTURE_VALUES[state];
  return {
    seriesId,
    key,
    ts: new Date(ts),
    state,
    hardState: state,
    hard: true,
    value,
    threshold: 100,
    warning: 110,
    critical: 130,
    explanation: `${state} ${value} (100 < W < 110 < C < 130)`,
  };
}
