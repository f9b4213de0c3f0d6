export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ baseDelayMs: 5_000, maxDelayMs: 15 * 60_000, maxAttempts: 10 });

/**
 * Delay before the next try after `attempts` failed ones (1, 2, …): base·2^(attempts−1), capped;
 * null once the attempts are used up, meaning the delivery has failed for good.
 */
export function retryDelayMs(attempts: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number | null {
  if (attempts >= policy.maxAttempts) return null;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}
