import { type CalcMethod, calcMethodSchema, type State, stateSchema } from "@tidemark/thresholds";
import { z } from "zod";

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

const finiteOrNull = z.number().finite().nullable();

export const evaluationOutcomeSchema = z.object({
  seriesId: z.number().int().positive(),
  key: z.string().min(1).max(1000),
  ts: z.date(),
  state: stateSchema,
  hardState: stateSchema,
  hard: z.boolean(),
  value: finiteOrNull,
  threshold: finiteOrNull,
  warning: finiteOrNull,
  critical: finiteOrNull,
  explanation: z.string().max(4000),
  calcMethod: calcMethodSchema.optional(),
}) satisfies z.ZodType<EvaluationOutcome>;
