-- item_states and alert_tracks hold one row per series, rewritten on every evaluated point.
-- Leaving room in each page lets PostgreSQL put the new row version beside the old one (a HOT
-- update): no new primary-key index entry per write, and dead versions pruned as pages are read.
ALTER TABLE "item_states" SET (fillfactor = 50);
ALTER TABLE "alert_tracks" SET (fillfactor = 50);
