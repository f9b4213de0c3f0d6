/**
 * The HTTP endpoints that are not tRPC: the agents' configuration channel, their ingest, and
 * Prometheus remote write. Plain Request → Response functions of a database, so a Next route file
 * is a one-line adapter and the integration tests serve exactly this code.
 */
export { agentConfigResponse, agentStatusResponse, LONG_POLL, type LongPollTiming } from "./agent.ts";
export { ingestResponse } from "./ingest.ts";
export {
  KNOWN_SERIES_MAX_KEYS,
  KnownIngestSeries,
  knownIngestSeriesOf,
  storeIngestBatch,
  TOO_MANY_SERIES_RECOUNT_MS,
} from "./ingest-store.ts";
export { errorResponse, zodIssues } from "./json-errors.ts";
export type { PointsStored } from "./points-stored.ts";
export { promWriteResponse } from "./prom-write.ts";
