import { LRUCache } from "lru-cache";
import { reusedOutput } from "./wire-format.ts";

/**
 * One answer of a dashboard read shared by every caller of an organisation who asks the same
 * thing within `ttlMs`: fifty people with the item list open cost the database one query a
 * second, not fifty. Concurrent callers wait for the same load (lru-cache's fetch), a failed load
 * is not kept, and the caller's organisation is part of every key, so no answer crosses
 * organisations. An organisation's mutation through this process drops its answers at once
 * (`forget`), so an edit shows on the next read; data arriving from agents shows within `ttlMs`,
 * as on a dashboard refreshing every second. Authorisation is not cached: the session and role
 * are checked on every request before a shared answer is handed out.
 */
export class SharedReads {
  private readonly answers: LRUCache<string, { value: unknown }, () => Promise<unknown>>;
  /** Bumped by `forget`: a key of an earlier generation is never read again (and ages out). */
  private readonly generations = new Map<string, number>();

  /** `now` (milliseconds, monotonic) is the clock answers age by: tests pass their own. */
  constructor(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
    this.answers = new LRUCache({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Staleness is judged on the clock of each read (lru-cache otherwise reuses one reading for 1 ms).
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
      // lru-cache calls this once per key however many callers are waiting for it. Every caller
      // gets the same answer, read-only, so its wire form is written once (wire-format.ts).
      fetchMethod: async (_key, _stale, { context }) => ({ value: reusedOutput(await context()) }),
    });
  }

  async read<T>(organizationId: string, what: string, input: unknown, load: () => Promise<T>): Promise<T> {
    const key = `${organizationId}\u0000${this.generations.get(organizationId) ?? 0}\u0000${what}\u0000${JSON.stringify(input ?? null)}`;
    const answer = await this.answers.fetch(key, { context: load });
    return answer!.value as T;
  }

  /** The organisation's data changed: its shared answers are not handed out again. */
  forget(organizationId: string): void {
    this.generations.set(organizationId, (this.generations.get(organizationId) ?? 0) + 1);
  }
}

/** How long a dashboard read is shared, and how many answers a web process keeps. */
export const SHARED_READ_TTL_MS = 1_000;
export const SHARED_READ_MAX_ENTRIES = 2_000;

/** A procedure's read through the context's shared answers when it has them, straight to the database when not. */
export function sharedRead<T>(
  ctx: { sharedReads?: SharedReads; org: { id: string } },
  what: string,
  input: unknown,
  load: () => Promise<T>,
): Promise<T> {
  return ctx.sharedReads ? ctx.sharedReads.read(ctx.org.id, what, input, load) : load();
}
