-- Prometheus and Alertmanager (issue 18).
-- Remote write creates the hosts, services and items of series it has not seen when this is on;
-- off, only series already configured are stored (the rest are reported as unknown).
ALTER TABLE "organizations" ADD COLUMN "prometheus_creates_series" BOOLEAN NOT NULL DEFAULT true;

-- A receiver is a webhook (Alertmanager's webhook body), an Alertmanager (its /api/v2/alerts,
-- resent while firing), a Slack-compatible incoming webhook, or email through SMTP (url smtp://…).
ALTER TABLE "webhooks" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'webhook';
-- {severities?: string[], host?: glob, service?: glob, item?: glob}: which alerts it gets.
ALTER TABLE "webhooks" ADD COLUMN "matchers" JSONB NOT NULL DEFAULT '{}'::jsonb;
-- Send a firing alert again after this long while it stays open (null: once).
ALTER TABLE "webhooks" ADD COLUMN "repeat_interval_seconds" INTEGER;
-- Email receivers: the recipients (comma-separated) and the sender.
ALTER TABLE "webhooks" ADD COLUMN "email_to" TEXT;
ALTER TABLE "webhooks" ADD COLUMN "email_from" TEXT;
