/** `@tidemark/db/metrics`: series and their points — ingest (agents', Prometheus'), reads, aggregates, previews. */
export * from "../board.ts";
export {
  COPY_FROM_POINTS,
  type IngestInput,
  ingestBatch,
  ingestByKnownSeries,
  ingestResolvedBatch,
  loadServiceItemSeries,
  type ResolvedIngestInput,
  type ResolvedPoint,
  type ServiceItemSeries,
} from "../ingest.ts";
export * from "../metrics.ts";
export * from "../preview.ts";
export * from "../prometheus-ingest.ts";
export * from "../suggest.ts";
export * from "../unknown-series.ts";
