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

/** How much one batch takes. */
export interface BatchLimits {
  /** Queue rows one claim takes at most. */
  maxRows: number;
  /** Points one claim takes at most (at least one queue row). */
  maxPoints: number;
  /** An organisation whose due work holds at most this many points (and `maxRows` rows) is one batch, all its shards at once. */
  wholeOrganizationPoints: number;
}

/**
 * The shards one batch tries to take, from `candidates` in the order to try them: every due
 * shard of the first one's organisation when its due work is light (within `maxRows` and
 * `wholeOrganizationPoints`), else the first alone. One batch of several shards pays one claim,
 * one window load and one commit where a batch each paid them all, and an expression reading a
 * series of another of its shards reads it evaluated, not ahead of its evaluation; that is what a
 * light cycle gains. A backlog stays one shard a batch, as bigger batches did not go faster per
 * point and spread worse over several workers (issue 22, sixth round).
 */
export function shardsForBatch(candidates: readonly DueShard[], limits: BatchLimits): DueShard[] {
  const first = candidates[0];
  if (!first) return [];
  const organization = candidates.filter((c) => c.organizationId === first.organizationId);
  let rows = 0;
  let points = 0;
  for (const shard of organization) {
    rows += shard.rows;
    points += shard.points;
  }
  return rows <= limits.maxRows && points <= limits.wholeOrganizationPoints ? organization : [first];
}
