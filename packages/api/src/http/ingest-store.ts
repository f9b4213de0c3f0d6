import type { Database } from "@tidemark/db/client";
import { type IngestInput, ingestBatch, ingestByKnownSeries, loadServiceItemSeries, type ServiceItemSeries } from "@tidemark/db/metrics";
import type { IngestResponse } from "@tidemark/protocol";
import { LRUCache } from "lru-cache";

/**
 * At most this many keys (about 94 bytes each: 23 MB) are remembered in all, the organisations
 * used least recently forgotten first: a process serving many organisations keeps the busy ones.
 * An organisation with more goes by key.
 */
export const KNOWN_SERIES_MAX_KEYS = 250_000;

/** How long an organisation found to have too many series goes by key before they are counted again. */
export const TOO_MANY_SERIES_RECOUNT_MS = 10 * 60_000;

/** An organisation with too many series to keep (a new object each time they are counted). */
interface TooMany {
  tooMany: true;
}

/**
 * The series of each organisation's service items by key, as this process last read them with
 * their configuration revision (`loadServiceItemSeries`): what lets an agent's batch go by id.
 */
export class KnownIngestSeries {
  private readonly cache: LRUCache<string, ServiceItemSeries | TooMany>;

  constructor(db: Database, maxKeys = KNOWN_SERIES_MAX_KEYS) {
    this.cache = new LRUCache<string, ServiceItemSeries | TooMany>({
      maxSize: maxKeys,
      sizeCalculation: (known) => ("tooMany" in known ? 1 : Math.max(1, known.seriesIdByKey.size)),
      fetchMethod: async (organizationId, _stale, { options }) => {
        const known = await loadServiceItemSeries(db, organizationId, maxKeys);
        if (known) return known;
        options.ttl = TOO_MANY_SERIES_RECOUNT_MS;
        return { tooMany: true };
      },
    });
  }

  /** What is known now, reading nothing. */
  get(organizationId: string): ServiceItemSeries | TooMany | undefined {
    return this.cache.get(organizationId);
  }

  /** Reads them again in the background: one read in flight per organisation; a failed one is forgotten. */
  refresh(organizationId: string): void {
    this.cache.fetch(organizationId, { forceRefresh: true }).catch(() => {});
  }

  /** What is known once the read in flight, if any, has ended (reading if nothing is known): for tests and warming up. */
  whenRead(organizationId: string): Promise<ServiceItemSeries | TooMany | undefined> {
    return this.cache.fetch(organizationId);
  }
}

/** One per database by default (a process has one; each test file its own). */
const perDatabase = new WeakMap<Database, KnownIngestSeries>();

export function knownIngestSeriesOf(db: Database): KnownIngestSeries {
  let known = perDatabase.get(db);
  if (!known) {
    known = new KnownIngestSeries(db);
    perDatabase.set(db, known);
  }
  return known;
}

/**
 * Stores an agent's batch as ingestBatch does, by series id when `series` knows the series of
 * every key under a revision that still holds (ingestResolvedBatch checks it in its statement):
 * the statement by key looks every key up again, about 15 of a 3 000-point batch's 38 ms. Nothing
 * is read before the first batch goes by key; the organisation's series are then read in the
 * background, and again whenever a batch by key finds that they changed (a new series, another
 * revision), never for keys that stay unknown.
 */
export async function storeIngestBatch(
  db: Database,
  input: IngestInput,
  series: KnownIngestSeries = knownIngestSeriesOf(db),
): Promise<IngestResponse> {
  const { organizationId, batch } = input;
  const known = series.get(organizationId);
  if (known && "tooMany" in known) return ingestBatch(db, input);
  const { response, byId, stale } = await ingestByKnownSeries(db, input, known);
  if (byId) return response;
  // Read again when nothing was known, the revision moved on, or the statement by key found a key
  // this process lacks (its series is new, or what it knows old) — not for keys that stay unknown.
  const unknown = new Set(response.unknownSeries);
  if (!known || stale || batch.results.some((r) => !known.seriesIdByKey.has(r.key) && !unknown.has(r.key))) series.refresh(organizationId);
  return response;
}
