import { ExprError, type Macros, references } from "@tidemark/expr";
import type { ThresholdPolicy } from "@tidemark/thresholds";

/**
 * The series an expression reads (`$$HOSTNAME$$` and the like resolved for the item), or none
 * while it does not parse (the parser's error is shown instead).
 */
export function referencedSeries(source: string, macros: Macros): string[] {
  try {
    return [...new Set(references(source, { macros }).map((r) => r.series))];
  } catch (error) {
    if (error instanceof ExprError) return [];
    throw error;
  }
}

/** Every series the policy's expression hours read, once each, sorted. */
export function policyReferencedSeries(policy: ThresholdPolicy, macros: Macros): string[] {
  const keys = new Set<string>();
  for (const period of policy.periods)
    for (const entry of period.hours.entries)
      if (entry?.kind === "expression") for (const k of referencedSeries(entry.source, macros)) keys.add(k);
  return [...keys].sort();
}

/** What the field says about an expression reading series the organisation does not have, or null. */
export function unknownSeriesProblem(source: string, macros: Macros, unknown: ReadonlySet<string>): string | null {
  const missing = referencedSeries(source, macros).filter((k) => unknown.has(k));
  if (missing.length === 0) return null;
  return `unknown series ${missing.map((k) => `'${k}'`).join(", ")}: no item or stored data has ${missing.length === 1 ? "this key" : "these keys"}`;
}
