import type { State } from "@tidemark/thresholds";

/**
 * How bad a state is, for escalation and peak severity. UNKNOWN (no data, or a null value) ranks
 * below WARNING: a measured breach says more than a missing measurement.
 */
const RANK: Record<State, number> = { OK: 0, UNKNOWN: 1, WARNING: 2, CRITICAL: 3 };

export function severityRank(state: State): number {
  return RANK[state];
}

export function worseOf(a: State, b: State): State {
  return RANK[b] > RANK[a] ? b : a;
}
