import { SHARED_READ_MAX_ENTRIES, SHARED_READ_TTL_MS, SharedReads } from "@tidemark/api";

/**
 * The web process's one set of shared dashboard reads (@tidemark/api's shared-reads.ts). On
 * globalThis: the API's direct path (src/main.ts) and Next.js's server layers each load this
 * module, and a mutation through one must drop the answers the others hand out.
 */
const holder = globalThis as unknown as { tidemarkSharedReads?: SharedReads };

export function processSharedReads(): SharedReads {
  holder.tidemarkSharedReads ??= new SharedReads({ ttlMs: SHARED_READ_TTL_MS, maxEntries: SHARED_READ_MAX_ENTRIES });
  return holder.tidemarkSharedReads;
}
