import type pg from "pg";
import { type Database, poolOf } from "./database.ts";
import { inSqlTransaction } from "./sql-transaction.ts";

/**
 * Token buckets kept in PostgreSQL, so that every web instance counts the same attempts. A bucket
 * holds up to `limit` tokens and refills at `limit` per `windowMs`. Every spending call locks the
 * bucket's row (SELECT … FOR UPDATE) for its read and its write, so concurrent attempts cannot both
 * spend the last token.
 */

export interface BucketRule {
  limit: number;
  windowMs: number;
}

export type BucketDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * One attempt against the bucket: `cost` 0 only looks (may one more attempt proceed?), `cost` 1
 * spends a token (a failed sign-in, a sign-up), also when the attempt is refused: hammering a
 * refused bucket keeps it empty.
 */
export async function rateLimitBucket(db: Database, key: string, rule: BucketRule, cost: 0 | 1, now = new Date()): Promise<BucketDecision> {
  const refillPerMs = rule.limit / rule.windowMs;
  const before =
    cost === 0
      ? await peekBucket(db, key, rule, now)
      : await inSqlTransaction(db, async (client) => {
          const available = await lockBucket(client, key, rule, now);
          await writeBucket(client, key, Math.max(0, available - cost), now);
          return available;
        });
  if (before >= 1 - 1e-9) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - before) / refillPerMs / 1000)) };
}

/**
 * Takes up to `want` whole tokens from the bucket at once (an instance's share, spent in process,
 * as ingest does): `granted` is how many; when none, `retryAfterSeconds` says when one will be.
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
    const available = await lockBucket(client, key, rule, now);
    // The epsilon absorbs floating-point drift from many fractional refills.
    const granted = Math.min(want, Math.floor(available + 1e-9));
    await writeBucket(client, key, Math.max(0, available - granted), now);
    return { granted, retryAfterSeconds: granted > 0 ? 0 : Math.max(1, Math.ceil((1 - available) / refillPerMs / 1000)) };
  });
}

/** The bucket's tokens now (refilled since its last write), its row locked until the transaction ends. */
async function lockBucket(client: pg.ClientBase, key: string, rule: BucketRule, now: Date): Promise<number> {
  await client.query(`INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, [
    key,
    rule.limit,
    now,
  ]);
  const { rows } = await client.query<{ tokens: number; updated_at: Date }>(
    `SELECT tokens, updated_at FROM rate_limit_buckets WHERE key = $1 FOR UPDATE`,
    [key],
  );
  return refilled(rows[0], rule, now);
}

async function peekBucket(db: Database, key: string, rule: BucketRule, now: Date): Promise<number> {
  const { rows } = await poolOf(db).query<{ tokens: number; updated_at: Date }>(
    `SELECT tokens, updated_at FROM rate_limit_buckets WHERE key = $1`,
    [key],
  );
  return refilled(rows[0], rule, now);
}

function refilled(row: { tokens: number; updated_at: Date } | undefined, rule: BucketRule, now: Date): number {
  if (!row) return rule.limit;
  return Math.min(rule.limit, row.tokens + (Math.max(0, now.getTime() - row.updated_at.getTime()) * rule.limit) / rule.windowMs);
}

async function writeBucket(client: pg.ClientBase, key: string, tokens: number, now: Date): Promise<void> {
  await client.query(`UPDATE rate_limit_buckets SET tokens = $2, updated_at = $3 WHERE key = $1`, [key, tokens, now]);
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
