import type { EvaluationRecord } from "@tidemark/db";
import type { HardStateStep, ThresholdResult } from "@tidemark/thresholds";

/**
 * One point's evaluation as the batch writes it. A class, so that the explanation is a getter
 * on the prototype: the text is written only for the few records kept as text (state changes,
 * alert events), and a getter in each object literal would cost more than the text itself.
 */
export class EvaluatedPoint implements EvaluationRecord {
  readonly state: HardStateStep["state"];
  readonly hardState: HardStateStep["hardState"];
  readonly softCount: number;
  readonly hard: boolean;
  readonly threshold: number | null;
  readonly warning: number | null;
  readonly critical: number | null;

  constructor(
    readonly seriesId: number,
    readonly ts: number,
    readonly value: number | null,
    step: HardStateStep,
    private readonly result: ThresholdResult,
    readonly changed: boolean,
  ) {
    this.state = step.state;
    this.hardState = step.hardState;
    this.softCount = step.count;
    this.hard = step.hardChanged;
    this.threshold = result.threshold;
    this.warning = result.warning;
    this.critical = result.critical;
  }

  get explanation(): string {
    return this.result.explanation;
  }
}
