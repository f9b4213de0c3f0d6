import type { Database } from "@tidemark/db/client";
import { type BucketDecision, type BucketRule, takeFromBucket } from "@tidemark/db/organizations";

/**
 * How fast one sender (an agent, or a token writing Prometheus samples) may ship batches: a burst
 * of 1200, then 20 a second. An agent ships a batch every few seconds, so only a runaway or stolen
 * token reaches it; TIDEMARK_INGEST_BATCHES_PER_MINUTE tunes it.
 *
 * The budget is kept in PostgreSQL (as sign-in's is), so that several web instances count the same
 * batches; each instance takes a share of it (a twentieth of the limit) at a time and spends that
 * in process, so that a batch costs no extra round trip: one per batch cost 7–14 % of ingest
 * throughput on the 2-core VM (issue 16, packages/api/README.md).
 * A share taken is spent for everyone: an instance never lets more through than the budget, and
 * may refuse up to a share early when a sender's batches are spread over instances.
 */
export const INGEST_LIMIT: BucketRule = { limit: Number(process.env.TIDEMARK_INGEST_BATCHES_PER_MINUTE) || 1200, windowMs: 60_000 };
const SHARE = Math.max(1, Math.floor(INGEST_LIMIT.limit / 20));
/** Senders whose unspent share this instance holds; bounded, the stalest forgotten first (its share is lost, never doubled). */
const MAX_HELD = 10_000;
const held = new Map<string, number>();

/** Spends one batch of `sender`'s allowance. */
export async function spendIngestAllowance(db: Database, sender: string): Promise<BucketDecision> {
  let tokens = held.get(sender) ?? 0;
  held.delete(sender);
  if (tokens < 1) {
    const taken = await takeFromBucket(db, `ingest:${sender}`, INGEST_LIMIT, SHARE);
    if (taken.granted === 0) return { allowed: false, retryAfterSeconds: taken.retryAfterSeconds };
    tokens = taken.granted;
  }
  if (tokens > 1) held.set(sender, tokens - 1);
  for (const stalest of held.keys()) {
    if (held.size <= MAX_HELD) break;
    held.delete(stalest);
  }
  return { allowed: true };
}
