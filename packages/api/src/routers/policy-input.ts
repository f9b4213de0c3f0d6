import { thresholdPolicySchema } from "@tidemark/thresholds";

function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** A policy from the editor: the shared schema, plus a time zone the engine can read hours in. */
export const editablePolicySchema = thresholdPolicySchema.refine((p) => isTimeZone(p.timeZone), {
  path: ["timeZone"],
  message: "unknown time zone",
});
