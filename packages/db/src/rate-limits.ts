import { type Database, poolOf } from "./database.ts";
import { inSqlTransaction } from "./sql-transaction.ts";

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

/**
 * Takes up to `want` whole tokens from the bucket at once (an instance's share, spent in process,
 * as ingest does): `granted` is how many; when none, `retryAfterSeconds` says when one will be.
 * The row is locked for the read and the write, so concurrent takers never share a token.
 */
export async function takeFromBucket(
  db: Database,
  key: string,
  rule: BucketRule,
  want: number,
  now = new Date(),
): Promise<{ granted: number; retryAfterSeconds: number }> {
  const refillPerMs = rule.limit / rule.windowMs;
  return inSqlTransaction(db, async (client) => {
    await client.query(`INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, [
      key,
      rule.limit,
      now,
    ]);
    const { rows } = await client.query<{ tokens: number; updated_at: Date }>(
      `SELECT tokens, updated_at FROM rate_limit_buckets WHERE key = $1 FOR UPDATE`,
      [key],
    );
    const row = rows[0] ?? { tokens: rule.limit, updated_at: now };
    const available = Math.min(rule.limit, row.tokens + Math.max(0, now.getTime() - row.updated_at.getTime()) * refillPerMs);
    // The epsilon absorbs floating-point drift from many fractional refills.
    const granted = Math.min(want, Math.floor(available + 1e-9));
    await client.query(`UPDATE rate_limit_buckets SET tokens = $2, updated_at = $3 WHERE key = $1`, [
      key,
      Math.max(0, available - granted),
      now,
    ]);
    return { granted, retryAfterSeconds: granted > 0 ? 0 : Math.max(1, Math.ceil((1 - available) / refillPerMs / 1000)) };
  });
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
