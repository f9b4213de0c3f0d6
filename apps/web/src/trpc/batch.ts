/**
 * At most this many calls in one tRPC batch request: the server refuses more with a 400 (an
 * unbounded batch let one request hold a worker for seconds), and the browser's link splits
 * larger batches so that a page never meets the limit.
 */
export const MAX_TRPC_BATCH = 20;
