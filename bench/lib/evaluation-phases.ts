import { EVALUATION_PHASES, type Evaluator } from "../../apps/worker/src/evaluator.ts";

/** The evaluator's time per phase from now on, as milliseconds per cycle once `cycles` ran. */
export function phaseMeter(evaluator: Evaluator) {
  const start = { ...evaluator.phaseMs };
  return {
    perCycle: (cycles: number) =>
      Object.fromEntries(EVALUATION_PHASES.map((p) => [p, Math.round(((evaluator.phaseMs[p] - start[p]) / cycles) * 100) / 100])),
  };
}
