-- The organisation's time zone: cron schedules are read in it, by the agents and by the worker.
ALTER TABLE "organizations" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
