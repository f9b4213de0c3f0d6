import type { DueShard } from "@tidemark/db/evaluation";

/** An organisation's shard as the worker's memory keys it. */
export const shardKey = (organizationId: string, shard: number) => `${organizationId}/${shard}`;

/** Work that waited longer than this is taken oldest first, whoever evaluated its shard last. */
const AFFINITY_MAX_WAIT_MS = 1000;

/**
 * The order to try due shards in: those this worker evaluated last first (its window and state
 * machines are current for them; another worker would load both from the database), the rest in
 * queue order — unless the oldest has waited past AFFINITY_MAX_WAIT_MS, so that no shard starves.
 */
export function preferOwnShards(due: DueShard[], lastEvaluated: ReadonlySet<string>): DueShard[] {
  if (due.length === 0 || due[0]!.waitedMs > AFFINITY_MAX_WAIT_MS) return due;
  const own = due.filter((d) => lastEvaluated.has(shardKey(d.organizationId, d.shard)));
  return [...own, ...due.filter((d) => !own.includes(d))];
}

/** How much one batch takes at most. */
export interface BatchLimits {
  maxRows: number;
  maxPoints: number;
}

/**
 * The shards one batch tries to take, from `candidates` in the order to try them: the first, and
 * after it the same organisation's next ones as long as their due rows and points fit the batch.
 * One batch of several shards pays one claim, one window load and one commit where a batch each
 * paid them all; and an expression reading a series of another of its shards reads it evaluated,
 * not ahead of its evaluation. A backlog still spreads over workers: a shard that does not fit is
 * left to the next batch, this worker's or another's.
 */
export function shardsForBatch(candidates: readonly DueShard[], limits: BatchLimits): DueShard[] {
  const first = candidates[0];
  if (!first) return [];
  const chosen = [first];
  let rows = first.rows;
  let points = first.points;
  for (const next of candidates.slice(1)) {
    if (next.organizationId !== first.organizationId) continue;
    if (rows + next.rows > limits.maxRows || points + next.points > limits.maxPoints) continue;
    chosen.push(next);
    rows += next.rows;
    points += next.points;
  }
  return chosen;
}
