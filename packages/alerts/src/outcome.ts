import type { CalcMethod, State } from "@tidemark/thresholds";

/**
 * One evaluated result of one series, as the worker hands it over after writing item_states and
 * state_changes. `warning`/`critical` are the boundary values (not percentages) at `ts`.
 * `calcMethod` is optional: without it the direction is inferred from where the warning boundary
 * lies relative to the threshold (below: "should be higher", above: "should be lower").
 */
export interface EvaluationOutcome {
  seriesId: number;
  /** host-service-item */
  key: string;
  ts: Date;
  state: State;
  hardState: State;
  hard: boolean;
  value: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  explanation: string;
  calcMethod?: CalcMethod;
}
