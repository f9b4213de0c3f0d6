import { type Database, poolOf } from "./database.ts";

/**
 * Token buckets kept in PostgreSQL, so that every web instance counts the same attempts. A bucket
 * holds up to `limit` tokens and refills at `limit` per `windowMs`. `cost` 0 only looks (may one
 * more attempt proceed?), `cost` 1 spends a token (a failed attempt). One statement, with the row
 * locked by its upsert, so concurrent attempts cannot both spend the last token.
 */

export interface BucketRule {
  limit: number;
  windowMs: number;
}

export type BucketDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function rateLimitBucket(db: Database, key: string, rule: BucketRule, cost: 0 | 1, now = new Date()): Promise<BucketDecision> {
  const refillPerMs = rule.limit / rule.windowMs;
  const { rows } = await poolOf(db).query<{ before: number }>(
    `WITH current AS (
       SELECT least($2::float8, tokens + greatest(0, extract(epoch FROM $4::timestamptz - updated_at) * 1000) * $3::float8) AS tokens
       FROM rate_limit_buckets WHERE key = $1
     ), counted AS (
       SELECT coalesce((SELECT tokens FROM current), $2::float8) AS before
     ), written AS (
       INSERT INTO rate_limit_buckets (key, tokens, updated_at)
       SELECT $1, greatest(0, before - $5::float8), $4 FROM counted WHERE $5 > 0
       ON CONFLICT (key) DO UPDATE SET
         tokens = greatest(0, least($2::float8, rate_limit_buckets.tokens
                    + greatest(0, extract(epoch FROM excluded.updated_at - rate_limit_buckets.updated_at) * 1000) * $3::float8) - $5::float8),
         updated_at = excluded.updated_at
     )
     SELECT before FROM counted`,
    [key, rule.limit, refillPerMs, now, cost],
  );
  const before = rows[0]?.before ?? rule.limit;
  if (before >= 1 - 1e-9) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - before) / refillPerMs / 1000)) };
}

export async function resetRateLimitBucket(db: Database, key: string): Promise<void> {
  await poolOf(db).query(`DELETE FROM rate_limit_buckets WHERE key = $1`, [key]);
}

/** Buckets untouched for longer than any window are full again: forgetting them changes nothing. */
export async function forgetFullBuckets(db: Database, olderThan: Date): Promise<void> {
  await poolOf(db).query(`DELETE FROM rate_limit_buckets WHERE updated_at < $1`, [olderThan]);
}

/** Whether this device cookie (its hash) signed in to `userId` before; marks it used. */
export async function isKnownDevice(db: Database, userId: string, tokenHash: string): Promise<boolean> {
  const { rowCount } = await poolOf(db).query(`UPDATE known_devices SET last_used_at = now() WHERE token_hash = $1 AND user_id = $2`, [
    tokenHash,
    userId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function rememberDevice(db: Database, userId: string, tokenHash: string): Promise<void> {
  await poolOf(db).query(
    `INSERT INTO known_devices (token_hash, user_id) VALUES ($1, $2) ON CONFLICT (token_hash) DO UPDATE SET last_used_at = now()`,
    [tokenHash, userId],
  );
}
