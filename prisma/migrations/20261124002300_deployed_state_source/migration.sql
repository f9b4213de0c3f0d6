-- Where an item's state comes from and when its silence is stale decide its alerts too: they are
-- frozen in the deployed version like its threshold and hysteresis, so saving them edits only the
-- draft (service_items) until deployed, and a rollback restores them.
ALTER TABLE "deployed_items"
  ADD COLUMN "state_source" TEXT NOT NULL DEFAULT 'worst',
  ADD COLUMN "stale_after_intervals" INTEGER NOT NULL DEFAULT 3;

-- Until now the worker read them from the draft: that is what ran, so nothing changes on upgrade.
UPDATE "deployed_items" d
SET "state_source" = i."state_source", "stale_after_intervals" = i."stale_after_intervals"
FROM "service_items" i
WHERE i."organization_id" = d."organization_id" AND i."series_key" = d."series_key";
