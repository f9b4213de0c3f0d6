-- An item's physical bounds (issue 17): the values it can take, e.g. 0..100 for a percentage or
-- 0.. for a count. Threshold suggestions keep every line strictly inside them; null: not declared
-- (the suggestion detects them from the history).
ALTER TABLE "service_items"
  ADD COLUMN "value_min" DOUBLE PRECISION,
  ADD COLUMN "value_max" DOUBLE PRECISION;
ALTER TABLE "service_items" ADD CONSTRAINT "service_items_value_bounds_order"
  CHECK ("value_min" IS NULL OR "value_max" IS NULL OR "value_min" < "value_max");
