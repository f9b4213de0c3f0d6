-- Alerts: per item alert settings, the state machine's memory per series, an alert's history,
-- and what the notifier needs to find its work.

-- Hysteresis (percent of the threshold an OK value must clear) and how long a recovery must
-- hold before the alert closes.
ALTER TABLE "service_items" ADD COLUMN "alert_recovery_margin" DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE "service_items" ADD COLUMN "alert_min_duration_seconds" INTEGER NOT NULL DEFAULT 0;

-- Set when a firing notification was queued, so that a resolved one is sent only after it.
ALTER TABLE "alerts" ADD COLUMN "notified_at" TIMESTAMPTZ(3);
-- At most one open alert per series, whatever runs concurrently.
CREATE UNIQUE INDEX "alerts_series_id_open_key" ON "alerts"("series_id") WHERE "closed_at" IS NULL;
CREATE INDEX "alerts_organization_id_closed_at_idx" ON "alerts"("organization_id", "closed_at");

-- What the alert state machine remembers between results: the last 21 states (one letter each,
-- for flapping detection), whether the series flaps, and when the current recovery began.
CREATE TABLE "alert_tracks" (
  "series_id" BIGINT NOT NULL REFERENCES "series"("id") ON DELETE CASCADE,
  "recent_states" TEXT NOT NULL,
  "flapping" BOOLEAN NOT NULL DEFAULT false,
  "flap_percent" DOUBLE PRECISION NOT NULL DEFAULT 0,
  "recovering_since" TIMESTAMPTZ(3),
  "last_ts" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "alert_tracks_pkey" PRIMARY KEY ("series_id")
);

-- An alert's history: transitions with the values at that moment, acknowledgements, and
-- notifications held back (silenced, acknowledged, flapping).
CREATE TABLE "alert_events" (
  "id" BIGSERIAL NOT NULL,
  "alert_id" UUID NOT NULL REFERENCES "alerts"("id") ON DELETE CASCADE,
  "ts" TIMESTAMPTZ(3) NOT NULL,
  "kind" TEXT NOT NULL,
  "severity" "check_state" NOT NULL,
  "value" DOUBLE PRECISION,
  "threshold" DOUBLE PRECISION,
  "warning" DOUBLE PRECISION,
  "critical" DOUBLE PRECISION,
  "detail" TEXT NOT NULL,
  "actor_user_id" UUID,
  CONSTRAINT "alert_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "alert_events_alert_id_ts_idx" ON "alert_events"("alert_id", "ts");

CREATE INDEX "notification_deliveries_alert_id_idx" ON "notification_deliveries"("alert_id");
CREATE INDEX "webhooks_organization_id_idx" ON "webhooks"("organization_id");
