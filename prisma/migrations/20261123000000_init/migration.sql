-- Tidemark's relational model. Kept in agreement with prisma/schema.prisma by a test.

CREATE TYPE "role" AS ENUM ('viewer', 'editor', 'admin');
CREATE TYPE "calc_method" AS ENUM ('higher', 'lower', 'near');
CREATE TYPE "check_state" AS ENUM ('OK', 'WARNING', 'CRITICAL', 'UNKNOWN');
CREATE TYPE "delivery_status" AS ENUM ('pending', 'delivered', 'applied', 'failed');

CREATE TABLE "organizations" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "slug" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations"("slug");

CREATE TABLE "users" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "email" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "password_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "memberships" (
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "role" "role" NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id", "organization_id")
);
CREATE INDEX "memberships_organization_id_idx" ON "memberships"("organization_id");

CREATE TABLE "sessions" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "token_hash" TEXT NOT NULL,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "active_organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

CREATE TABLE "invitations" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "email" TEXT NOT NULL,
  "role" "role" NOT NULL,
  "token_hash" TEXT NOT NULL,
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "accepted_at" TIMESTAMPTZ(3),
  CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_organization_id_idx" ON "invitations"("organization_id");

CREATE TABLE "api_tokens" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "token_hash" TEXT NOT NULL,
  "role" "role" NOT NULL,
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_used_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3),
  CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");
CREATE INDEX "api_tokens_organization_id_idx" ON "api_tokens"("organization_id");

CREATE TABLE "hosts" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "alias" TEXT,
  "description" TEXT NOT NULL DEFAULT '',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "hosts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "hosts_organization_id_name_key" ON "hosts"("organization_id", "name");

CREATE TABLE "agents" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "token_prefix" TEXT NOT NULL,
  "token_hash" TEXT NOT NULL,
  "push_url" TEXT,
  "applied_version" INTEGER,
  "applied_hash" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_seen_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3),
  CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "agents_token_hash_key" ON "agents"("token_hash");
CREATE UNIQUE INDEX "agents_organization_id_name_key" ON "agents"("organization_id", "name");

CREATE TABLE "services" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "host_id" UUID NOT NULL REFERENCES "hosts"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "schedules" TEXT[],
  "url" TEXT NOT NULL,
  "send_service_data" BOOLEAN NOT NULL DEFAULT true,
  "agent_id" UUID REFERENCES "agents"("id") ON DELETE SET NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "services_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "services_host_id_name_key" ON "services"("host_id", "name");
CREATE INDEX "services_organization_id_idx" ON "services"("organization_id");
CREATE INDEX "services_agent_id_idx" ON "services"("agent_id");

CREATE TABLE "holiday_calendars" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "holiday_calendars_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "holiday_calendars_organization_id_name_key" ON "holiday_calendars"("organization_id", "name");

CREATE TABLE "holiday_days" (
  "calendar_id" UUID NOT NULL REFERENCES "holiday_calendars"("id") ON DELETE CASCADE,
  "year" INTEGER NOT NULL,
  "month_day" TEXT NOT NULL,
  CONSTRAINT "holiday_days_pkey" PRIMARY KEY ("calendar_id", "year", "month_day")
);

CREATE TABLE "threshold_policies" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT,
  "is_template" BOOLEAN NOT NULL DEFAULT false,
  "null_state" "check_state" NOT NULL DEFAULT 'UNKNOWN',
  "max_soft" INTEGER NOT NULL DEFAULT 3,
  "time_zone" TEXT NOT NULL DEFAULT 'UTC',
  "holiday_calendar_id" UUID REFERENCES "holiday_calendars"("id") ON DELETE SET NULL,
  "revision" INTEGER NOT NULL DEFAULT 1,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "threshold_policies_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "threshold_policies_organization_id_name_key" ON "threshold_policies"("organization_id", "name");

CREATE TABLE "threshold_periods" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "policy_id" UUID NOT NULL REFERENCES "threshold_policies"("id") ON DELETE CASCADE,
  "position" INTEGER NOT NULL,
  "month_rules" JSONB NOT NULL DEFAULT '[]',
  "week_rules" JSONB NOT NULL DEFAULT '[]',
  "calc_method" "calc_method" NOT NULL,
  "warning" DOUBLE PRECISION NOT NULL,
  "critical" DOUBLE PRECISION NOT NULL,
  "hours" JSONB NOT NULL,
  "hour_levels" JSONB NOT NULL,
  CONSTRAINT "threshold_periods_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "threshold_periods_policy_id_position_key" ON "threshold_periods"("policy_id", "position");

CREATE TABLE "service_items" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "service_id" UUID NOT NULL REFERENCES "services"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "exec_statement" TEXT NOT NULL,
  "threshold_class" TEXT,
  "service_item_class" TEXT,
  "cache_max_count" INTEGER,
  "policy_id" UUID REFERENCES "threshold_policies"("id") ON DELETE SET NULL,
  "series_key" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "service_items_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "service_items_service_id_name_key" ON "service_items"("service_id", "name");
CREATE UNIQUE INDEX "service_items_organization_id_series_key_key" ON "service_items"("organization_id", "series_key");
CREATE INDEX "service_items_policy_id_idx" ON "service_items"("policy_id");

CREATE TABLE "deployments" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "version" INTEGER NOT NULL,
  "config_hash" TEXT NOT NULL,
  "snapshot" JSONB NOT NULL,
  "message" TEXT NOT NULL DEFAULT '',
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "rollback_of" INTEGER,
  CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "deployments_organization_id_version_key" ON "deployments"("organization_id", "version");

CREATE TABLE "deployment_targets" (
  "deployment_id" UUID NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
  "agent_id" UUID NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "rendered_hash" TEXT NOT NULL,
  "status" "delivery_status" NOT NULL DEFAULT 'pending',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "deployment_targets_pkey" PRIMARY KEY ("deployment_id", "agent_id")
);
CREATE INDEX "deployment_targets_status_next_attempt_at_idx" ON "deployment_targets"("status", "next_attempt_at");

CREATE TABLE "series" (
  "id" BIGSERIAL NOT NULL,
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "key" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "series_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "series_organization_id_key_key" ON "series"("organization_id", "key");

CREATE TABLE "item_states" (
  "series_id" BIGINT NOT NULL REFERENCES "series"("id") ON DELETE CASCADE,
  "ts" TIMESTAMPTZ(3) NOT NULL,
  "state" "check_state" NOT NULL,
  "hard_state" "check_state" NOT NULL,
  "soft_count" INTEGER NOT NULL,
  "value" DOUBLE PRECISION,
  "threshold" DOUBLE PRECISION,
  "explanation" TEXT NOT NULL,
  CONSTRAINT "item_states_pkey" PRIMARY KEY ("series_id")
);

CREATE TABLE "alerts" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "series_id" BIGINT NOT NULL REFERENCES "series"("id") ON DELETE CASCADE,
  "severity" "check_state" NOT NULL,
  "peak_severity" "check_state" NOT NULL,
  "opened_at" TIMESTAMPTZ(3) NOT NULL,
  "closed_at" TIMESTAMPTZ(3),
  "flapping" BOOLEAN NOT NULL DEFAULT false,
  "value" DOUBLE PRECISION,
  "threshold" DOUBLE PRECISION,
  "warning" DOUBLE PRECISION,
  "critical" DOUBLE PRECISION,
  "explanation" TEXT NOT NULL,
  "acknowledged_at" TIMESTAMPTZ(3),
  "acknowledged_by" UUID,
  "ack_comment" TEXT,
  CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "alerts_organization_id_opened_at_idx" ON "alerts"("organization_id", "opened_at" DESC);
CREATE INDEX "alerts_series_id_opened_at_idx" ON "alerts"("series_id", "opened_at" DESC);

CREATE TABLE "silences" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "matchers" JSONB NOT NULL,
  "starts_at" TIMESTAMPTZ(3) NOT NULL,
  "ends_at" TIMESTAMPTZ(3) NOT NULL,
  "comment" TEXT NOT NULL,
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "silences_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "silences_organization_id_ends_at_idx" ON "silences"("organization_id", "ends_at");

CREATE TABLE "webhooks" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "notification_deliveries" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "webhook_id" UUID NOT NULL REFERENCES "webhooks"("id") ON DELETE CASCADE,
  "alert_id" UUID NOT NULL,
  "payload" JSONB NOT NULL,
  "status" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "delivered_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notification_deliveries_status_next_attempt_at_idx" ON "notification_deliveries"("status", "next_attempt_at");

CREATE TABLE "ingest_batches" (
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "batch_id" TEXT NOT NULL,
  "agent_id" UUID REFERENCES "agents"("id") ON DELETE SET NULL,
  "point_count" INTEGER NOT NULL,
  "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "ingest_batches_pkey" PRIMARY KEY ("organization_id", "batch_id")
);

CREATE TABLE "audit_log" (
  "id" BIGSERIAL NOT NULL,
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "actor_user_id" UUID,
  "actor_kind" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "target_type" TEXT NOT NULL,
  "target_id" TEXT,
  "before" JSONB,
  "after" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_organization_id_created_at_idx" ON "audit_log"("organization_id", "created_at" DESC);

-- Time series. On TimescaleDB the next migration turns these into hypertables.
CREATE TABLE "metric_points" (
  "series_id" BIGINT NOT NULL REFERENCES "series"("id") ON DELETE CASCADE,
  "ts" TIMESTAMPTZ(3) NOT NULL,
  "value" DOUBLE PRECISION,
  CONSTRAINT "metric_points_pkey" PRIMARY KEY ("series_id", "ts")
);

CREATE TABLE "state_changes" (
  "series_id" BIGINT NOT NULL REFERENCES "series"("id") ON DELETE CASCADE,
  "ts" TIMESTAMPTZ(3) NOT NULL,
  "state" "check_state" NOT NULL,
  "hard" BOOLEAN NOT NULL,
  "value" DOUBLE PRECISION,
  "threshold" DOUBLE PRECISION,
  "warning" DOUBLE PRECISION,
  "critical" DOUBLE PRECISION,
  "explanation" TEXT NOT NULL,
  CONSTRAINT "state_changes_pkey" PRIMARY KEY ("series_id", "ts")
);
