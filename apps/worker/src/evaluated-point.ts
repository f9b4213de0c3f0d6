import { pluginExplanation } from "@tidemark/alerts";
import type { EvaluationRecord } from "@tidemark/db/evaluation";
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
    /** Null when the item has no threshold and its state is the plugin's. */
    private readonly result: ThresholdResult | null,
    readonly changed: boolean,
    /** The plugin's exit code and first output line, when the result carried them. */
    private readonly pluginStatus?: number | null,
    private readonly pluginOutput?: string | null,
  ) {
    this.state = step.state;
    this.hardState = step.hardState;
    this.softCount = step.count;
    this.hard = step.hardChanged;
    this.threshold = result?.threshold ?? null;
    this.warning = result?.warning ?? null;
    this.critical = result?.critical ?? null;
  }

  /** The threshold's explanation and the plugin's output, so both show in the alert detail and in notifications. */
  get explanation(): string {
    const plugin = this.pluginStatus == null ? null : pluginExplanation(this.pluginStatus, this.pluginOutput);
    if (!this.result) return plugin ?? "";
    return plugin ? `${this.result.explanation}; ${plugin}` : this.result.explanation;
  }
}
