/**
 * In-process token-bucket rate limiting, keyed by whatever the caller chooses (IP + email for
 * sign-in, agent token for ingest). Pure: the clock is passed in, so tests need no timers.
 *
 * A bucket holds up to `limit` tokens and refills at `limit` per `windowMs`: a client may burst
 * `limit` requests, then proceeds at the sustained rate. Memory is bounded by `maxKeys`; the
 * oldest untouched buckets are forgotten first (forgetting one only ever lets a client in sooner).
 */

export interface RateLimitRule {
  /** Requests allowed in a burst, and per window on average. */
  limit: number;
  windowMs: number;
  /** At most this many keys are tracked at once. */
  maxKeys?: number;
}

export type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const DEFAULT_MAX_KEYS = 50_000;

export class RateLimiter {
  readonly #rule: Required<RateLimitRule>;
  readonly #buckets = new Map<string, Bucket>();

  constructor(rule: RateLimitRule) {
    if (!(rule.limit >= 1) || !(rule.windowMs > 0)) throw new RangeError("a rate limit needs limit ≥ 1 and windowMs > 0");
    this.#rule = { maxKeys: DEFAULT_MAX_KEYS, ...rule };
  }

  /** Counts one request for `key` at time `now` (ms) and says whether it may proceed. */
  hit(key: string, now: number): RateLimitDecision {
    const { limit, windowMs, maxKeys } = this.#rule;
    const refillPerMs = limit / windowMs;
    const previous = this.#buckets.get(key);
    const elapsed = previous ? Math.max(0, now - previous.updatedAt) : 0;
    const tokens = previous ? Math.min(limit, previous.tokens + (elapsed * limit) / windowMs) : limit;
    // Re-inserting keeps the Map ordered by last use, so eviction drops the stalest key.
    this.#buckets.delete(key);
    // The epsilon absorbs floating-point drift from many fractional refills.
    if (tokens >= 1 - 1e-9) {
      this.#buckets.set(key, { tokens: tokens - 1, updatedAt: now });
      this.#evict(maxKeys);
      return { allowed: true, remaining: Math.max(0, Math.floor(tokens - 1)) };
    }
    // A refusal leaves the bucket as it was, so hammering does not move the retry time.
    this.#buckets.set(key, previous ?? { tokens, updatedAt: now });
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000)) };
  }

  /** Forgets `key`, e.g. after a successful sign-in. */
  reset(key: string): void {
    this.#buckets.delete(key);
  }

  get trackedKeys(): number {
    return this.#buckets.size;
  }

  #evict(maxKeys: number) {
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size <= maxKeys) return;
      this.#buckets.delete(key);
    }
  }
}
