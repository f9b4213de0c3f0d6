-- item_states is the state machines' memory only: the last value, threshold and explanation
-- live in metric_points and state_changes, and rewriting them on every evaluated point cost the
-- worker a third of its write time.
ALTER TABLE "item_states" DROP COLUMN "value", DROP COLUMN "threshold", DROP COLUMN "explanation";
