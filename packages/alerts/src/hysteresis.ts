import type { CalcMethod } from "@tidemark/thresholds";
import type { EvaluationOutcome } from "./outcome.ts";

/**
 * Whether an OK result is far enough from the warning boundary to count as a recovery: with a
 * margin of m %, the value must clear the boundary by m % of the threshold, so that a value
 * hovering on the boundary does not close and reopen the alert on every result.
 */
export function clearsRecoveryMargin(outcome: EvaluationOutcome, marginPercent: number): boolean {
  if (marginPercent <= 0) return true;
  const { value, threshold, warning } = outcome;
  // Without a threshold there is nothing to clear (no check: OK by Bischeck's rules).
  if (value === null || threshold === null || warning === null) return true;
  const margin = (Math.abs(threshold) * marginPercent) / 100;
  switch (direction(outcome.calcMethod, threshold, warning)) {
    case ">":
      return value >= warning + margin;
    case "<":
      return value <= warning - margin;
    case "=": {
      const halfWidth = Math.abs(warning - threshold);
      return Math.abs(value - threshold) <= halfWidth - margin;
    }
  }
}

function direction(calc: CalcMethod | undefined, threshold: number, warning: number): CalcMethod {
  if (calc) return calc;
  return warning < threshold ? ">" : "<";
}
