-- tidemark:no-transaction
-- Time-series objects. TimescaleDB's continuous aggregates cannot be created inside a
-- transaction block, so this migration runs statement by statement, and its sections are
-- chosen by the runner from what the database has: `timescaledb` (hypertables, continuous
-- aggregates, compression and retention) or `plain` (PostgreSQL 15+ without the extension:
-- views over the raw table with date_bin, which reproduces time_bucket's buckets).

-- tidemark:section timescaledb
SELECT create_hypertable('metric_points', by_range('ts', INTERVAL '1 day'), migrate_data => true);
SELECT create_hypertable('state_changes', by_range('ts', INTERVAL '7 days'), migrate_data => true);

CREATE MATERIALIZED VIEW "metric_5m" WITH (timescaledb.continuous, timescaledb.materialized_only = false) AS
SELECT series_id, time_bucket(INTERVAL '5 minutes', ts) AS bucket,
       avg(value) AS avg, min(value) AS min, max(value) AS max, count(value) AS count
FROM metric_points GROUP BY series_id, bucket WITH NO DATA;

CREATE MATERIALIZED VIEW "metric_1h" WITH (timescaledb.continuous, timescaledb.materialized_only = false) AS
SELECT series_id, time_bucket(INTERVAL '1 hour', ts) AS bucket,
       avg(value) AS avg, min(value) AS min, max(value) AS max, count(value) AS count
FROM metric_points GROUP BY series_id, bucket WITH NO DATA;

CREATE INDEX "metric_5m_series_bucket_idx" ON "metric_5m" (series_id, bucket DESC);
CREATE INDEX "metric_1h_series_bucket_idx" ON "metric_1h" (series_id, bucket DESC);

SELECT add_continuous_aggregate_policy('metric_5m', start_offset => INTERVAL '2 hours', end_offset => INTERVAL '5 minutes', schedule_interval => INTERVAL '5 minutes');
SELECT add_continuous_aggregate_policy('metric_1h', start_offset => INTERVAL '3 days', end_offset => INTERVAL '1 hour', schedule_interval => INTERVAL '1 hour');

ALTER TABLE metric_points SET (timescaledb.compress, timescaledb.compress_segmentby = 'series_id', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('metric_points', compress_after => INTERVAL '7 days');
SELECT add_retention_policy('metric_points', drop_after => INTERVAL '400 days');
SELECT add_retention_policy('metric_5m', drop_after => INTERVAL '400 days');
SELECT add_retention_policy('state_changes', drop_after => INTERVAL '800 days');

-- tidemark:section plain
CREATE INDEX "state_changes_ts_idx" ON "state_changes" (ts DESC);

CREATE VIEW "metric_5m" AS
SELECT series_id, date_bin(INTERVAL '5 minutes', ts, TIMESTAMPTZ '2000-01-03 00:00:00+00') AS bucket,
       avg(value) AS avg, min(value) AS min, max(value) AS max, count(value) AS count
FROM metric_points GROUP BY series_id, bucket;

CREATE VIEW "metric_1h" AS
SELECT series_id, date_bin(INTERVAL '1 hour', ts, TIMESTAMPTZ '2000-01-03 00:00:00+00') AS bucket,
       avg(value) AS avg, min(value) AS min, max(value) AS max, count(value) AS count
FROM metric_points GROUP BY series_id, bucket;
