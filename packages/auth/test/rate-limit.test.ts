import { describe, expect, it } from "vitest";
import { RateLimiter } from "../src/rate-limit.ts";

describe("RateLimiter", () => {
  it("allows a burst of `limit`, then refuses with the seconds until the next token", () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 });
    expect(limiter.hit("k", 0)).toEqual({ allowed: true, remaining: 2 });
    expect(limiter.hit("k", 0)).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.hit("k", 0)).toEqual({ allowed: true, remaining: 0 });
    // One token refills every 20 s.
    expect(limiter.hit("k", 0)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(limiter.hit("k", 15_000)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    expect(limiter.hit("k", 20_000)).toEqual({ allowed: true, remaining: 0 });
  });

  it("keeps keys apart", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
    expect(limiter.hit("a", 0).allowed).toBe(true);
    expect(limiter.hit("a", 0).allowed).toBe(false);
    expect(limiter.hit("b", 0).allowed).toBe(true);
  });

  it("refills to at most `limit` after a long pause", () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000 });
    limiter.hit("k", 0);
    const after = [limiter.hit("k", 1_000_000), limiter.hit("k", 1_000_000), limiter.hit("k", 1_000_000)];
    expect(after.map((d) => d.allowed)).toEqual([true, true, false]);
  });

  it("refused requests do not push the retry time further out", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 10_000 });
    limiter.hit("k", 0);
    for (let t = 0; t < 10_000; t += 1000) expect(limiter.hit("k", t).allowed).toBe(false);
    expect(limiter.hit("k", 10_000).allowed).toBe(true);
  });

  it("reset forgets a key", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 });
    limiter.hit("k", 0);
    limiter.reset("k");
    expect(limiter.hit("k", 0).allowed).toBe(true);
  });

  it("bounds memory by forgetting the least recently used keys", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    limiter.hit("a", 0);
    limiter.hit("b", 0);
    limiter.hit("a", 1); // a is now the most recently used
    limiter.hit("c", 2);
    expect(limiter.trackedKeys).toBe(2);
    expect(limiter.hit("a", 3).allowed).toBe(false);
    expect(limiter.hit("b", 3).allowed).toBe(true); // b was forgotten
  });

  it("rejects nonsensical rules", () => {
    expect(() => new RateLimiter({ limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});
