import type { Database } from "@tidemark/db/client";
import {
  type IngestInput,
  ingestBatch,
  ingestResolvedBatch,
  loadServiceItemSeries,
  resolvedPoints,
  type ServiceItemSeries,
} from "@tidemark/db/metrics";
import type { IngestResponse } from "@tidemark/protocol";
import { LRUCache } from "lru-cache";

/**
 * At most this many keys (about 100 bytes each) are remembered in all, the organisations used
 * least recently forgotten first: a process serving many organisations keeps the busy ones.
 */
export const KNOWN_SERIES_MAX_KEYS = 500_000;

/** One cache per database (a process has one; each test file its own). */
const knownSeries = new WeakMap<Database, LRUCache<string, ServiceItemSeries>>();

function knownSeriesOf(db: Database): LRUCache<string, ServiceItemSeries> {
  let cache = knownSeries.get(db);
  if (!cache) {
    cache = new LRUCache<string, ServiceItemSeries>({
      maxSize: KNOWN_SERIES_MAX_KEYS,
      sizeCalculation: (known) => Math.max(1, known.seriesIdByKey.size),
      fetchMethod: (organizationId) => loadServiceItemSeries(db, organizationId),
    });
    knownSeries.set(db, cache);
  }
  return cache;
}

/**
 * Stores an agent's batch as ingestBatch does, by series id when this process knows the series of
 * every key under a revision that still holds (ingestResolvedBatch checks it in its statement):
 * the statement by key looks every key up again, about 15 of a 3 000-point batch's 38 ms. Nothing
 * is read before the first batch goes by key; the organisation's series are then read in the
 * background, and again whenever a batch by key finds that they changed (a new series, another
 * revision), never for keys that stay unknown.
 */
export async function storeIngestBatch(db: Database, input: IngestInput): Promise<IngestResponse> {
  const { organizationId, batch } = input;
  const cache = knownSeriesOf(db);
  const known = cache.get(organizationId);
  let changed = known === undefined;
  const points = known ? resolvedPoints(batch.results, known.seriesIdByKey) : null;
  if (known && points) {
    const stored = await ingestResolvedBatch(db, {
      organizationId,
      agentId: input.agentId,
      batchId: batch.batchId,
      revision: known.revision,
      points,
    });
    if (stored) return { batchId: batch.batchId, ...stored, unknownSeries: [] };
    changed = true;
  }
  const response = await ingestBatch(db, input);
  if (known && !changed) {
    // A key the cache lacks that the statement by key found: its series is new, or the cache old.
    const unknown = new Set(response.unknownSeries);
    changed = batch.results.some((r) => !known.seriesIdByKey.has(r.key) && !unknown.has(r.key));
  }
  // One read at a time per organisation (fetch shares one in flight); a failed one is forgotten.
  if (changed) cache.fetch(organizationId, { forceRefresh: true }).catch(() => {});
  return response;
}

/**
 * What this process knows of the organisation's series once the read in flight, if any, has
 * ended (reading them if nothing is known): for tests, and to warm up before the first batch.
 */
export function knownIngestSeries(db: Database, organizationId: string): Promise<ServiceItemSeries | undefined> {
  return knownSeriesOf(db).fetch(organizationId);
}
