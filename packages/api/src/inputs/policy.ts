import { ExprError, parse } from "@tidemark/expr";
import { isTimeZone } from "@tidemark/model";
import { type ThresholdPolicy, thresholdPolicySchema } from "@tidemark/thresholds";
import type * as z from "zod";

/**
 * Every expression hour must parse: a policy the engine cannot read would be saved and then
 * answer UNKNOWN every hour. The issue points at the hour entry and, in its message, at the
 * line:column inside the expression.
 */
function checkExpressions(policy: ThresholdPolicy, ctx: z.core.$RefinementCtx<ThresholdPolicy>): void {
  policy.periods.forEach((period, periodIndex) => {
    period.hours.entries.forEach((entry, hour) => {
      if (entry?.kind !== "expression") return;
      try {
        parse(entry.source);
      } catch (error) {
        if (!(error instanceof ExprError)) throw error;
        ctx.addIssue({
          code: "custom",
          path: ["periods", periodIndex, "hours", "entries", hour, "source"],
          message: `period ${periodIndex + 1}, hour ${String(hour).padStart(2, "0")}: ${error.message}`,
          params: { position: error.position },
        });
      }
    });
  });
}

/** A policy from the editor: the shared schema, plus a time zone the engine can read hours in and expressions that parse. */
export const editablePolicySchema = thresholdPolicySchema
  .refine((p) => isTimeZone(p.timeZone), {
    path: ["timeZone"],
    message: "unknown time zone",
  })
  .superRefine(checkExpressions);
