/** `@tidemark/db/evaluation`: the evaluation queue and its claims, item states, calculations' runs, freshness. */
export * from "../calculation-runs.ts";
export * from "../configuration-revision.ts";
export {
  addEvaluationWrites,
  beginOrganizationEvaluation,
  type ClaimedWork,
  claimEvaluationWork,
  type DueShard,
  deferEvaluationWork,
  dueShards,
  EVALUATION_SHARDS,
  type EvaluatedItem,
  type EvaluationClaim,
  type EvaluationCompletion,
  type EvaluationRecord,
  type EvaluationTransaction,
  evaluationLockKey,
  type HistoryRequest,
  type ItemStateRow,
  loadEvaluatedItems,
  loadItemStates,
  loadRecentPoints,
  loadSettledBefore,
  type QueuedPoint,
  queueDepth,
  queueStoredPoints,
  type Transaction,
} from "../evaluation.ts";
export * from "../freshness.ts";
export { WriteStatement } from "../write-statement.ts";
