import { DEFAULT_STALE_AFTER_INTERVALS, DEFAULT_STATE_SOURCE, type StateSource } from "@tidemark/alerts";
import { thresholdPolicySchema } from "@tidemark/thresholds/policy";
import type { FieldChange } from "./diff.ts";
import { diffItemDecision, type ItemDecision } from "./threshold-diff.ts";

/** How an item's saved draft (threshold and alert settings, state source, staleness) stands against what the worker evaluates. */
export type ItemDeploymentStatus =
  | { status: "not-deployed" }
  | { status: "deployed"; version: number; inDeployment: boolean; differs: boolean; changes: FieldChange[] };

/** The item as the worker holds it, stored: the policy as JSON, columns of versions from before a setting existed empty. */
export interface StoredItemDecision {
  policy: unknown;
  recoveryMarginPercent: number | null;
  minimumDurationSeconds: number | null;
  stateSource: string | null;
  staleAfterIntervals: number | null;
}

/** The stored decision as of today: an unreadable policy counts as none, missing settings as their defaults. */
export function readItemDecision(stored: StoredItemDecision): ItemDecision {
  const parsed = stored.policy === null ? null : thresholdPolicySchema.safeParse(stored.policy);
  return {
    policy: parsed?.success ? parsed.data : null,
    recoveryMarginPercent: stored.recoveryMarginPercent ?? 0,
    minimumDurationSeconds: stored.minimumDurationSeconds ?? 0,
    stateSource: (stored.stateSource ?? DEFAULT_STATE_SOURCE) as StateSource,
    staleAfterIntervals: stored.staleAfterIntervals ?? DEFAULT_STALE_AFTER_INTERVALS,
  };
}

/**
 * The draft against the organisation's latest version (null: it never deployed) and the item's
 * deployed decision (null: the item is not in that version, so the draft differs whatever it says).
 */
export function itemDeploymentStatus(version: number | null, deployed: ItemDecision | null, draft: ItemDecision): ItemDeploymentStatus {
  if (version === null) return { status: "not-deployed" };
  const changes = diffItemDecision(deployed, draft);
  return { status: "deployed", version, inDeployment: deployed !== null, differs: deployed === null || changes.length > 0, changes };
}
