-- What the worker evaluates: every item of the organisation's deployed version, with the
-- threshold policy and alert settings frozen in that version. Replaced whole by each deployment
-- (and rollback), so saving a threshold edits only the draft tables (service_items,
-- threshold_policies) until it is deployed.
CREATE TABLE "deployed_items" (
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "series_key" TEXT NOT NULL,
  "deployment_version" INTEGER NOT NULL,
  "host" TEXT NOT NULL,
  "service" TEXT NOT NULL,
  "item" TEXT NOT NULL,
  -- The service's connection URL and schedules and the item's exec statement as deployed: the
  -- worker runs bischeck:// calculations from these, not from the draft.
  "service_url" TEXT NOT NULL,
  "schedules" TEXT[] NOT NULL,
  "exec_statement" TEXT NOT NULL,
  -- A ThresholdPolicy as JSON (@tidemark/thresholds' schema); null: no threshold.
  "policy" JSONB,
  "interval_ms" BIGINT,
  "alert_recovery_margin" DOUBLE PRECISION NOT NULL DEFAULT 0,
  "alert_min_duration_seconds" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "deployed_items_pkey" PRIMARY KEY ("organization_id", "series_key")
);

-- Until now the worker evaluated the saved tables: they are what ran, so they become what is
-- deployed (version 0 when the organisation never deployed) and nothing changes on upgrade.
INSERT INTO "deployed_items" ("organization_id", "series_key", "deployment_version", "host", "service", "item",
                              "service_url", "schedules", "exec_statement", "policy",
                              "interval_ms", "alert_recovery_margin", "alert_min_duration_seconds")
SELECT i."organization_id", i."series_key",
       coalesce((SELECT max(d."version") FROM "deployments" d WHERE d."organization_id" = i."organization_id"), 0),
       h."name", s."name", i."name", s."url", s."schedules", i."exec_statement",
       CASE WHEN p."id" IS NULL THEN NULL ELSE jsonb_build_object(
         'periods', coalesce((SELECT jsonb_agg(jsonb_build_object(
             'months', tp."month_rules", 'weeks', tp."week_rules",
             'calcMethod', CASE tp."calc_method" WHEN 'higher' THEN '>' WHEN 'lower' THEN '<' ELSE '=' END,
             'warning', tp."warning", 'critical', tp."critical",
             'hours', jsonb_build_object('entries', tp."hours", 'levels', tp."hour_levels")) ORDER BY tp."position")
           FROM "threshold_periods" tp WHERE tp."policy_id" = p."id"), '[]'::jsonb),
         'holidays', coalesce((SELECT jsonb_agg(jsonb_build_object('year', y."year", 'days', y."days") ORDER BY y."year")
           FROM (SELECT hd."year", jsonb_agg(hd."month_day" ORDER BY hd."month_day") AS "days" FROM "holiday_days" hd
                 WHERE hd."calendar_id" = p."holiday_calendar_id" GROUP BY hd."year") y), '[]'::jsonb),
         'nullState', p."null_state", 'maxSoft', p."max_soft", 'timeZone', p."time_zone") END,
       (SELECT min(CASE substring(sch FROM '[SMH]$') WHEN 'S' THEN 1000 WHEN 'M' THEN 60000 ELSE 3600000 END
                   * substring(sch FROM '^(\d+)[SMH]$')::bigint)
        FROM unnest(s."schedules") AS sch WHERE sch ~ '^\d+[SMH]$'),
       i."alert_recovery_margin", i."alert_min_duration_seconds"
FROM "service_items" i
JOIN "services" s ON s."id" = i."service_id"
JOIN "hosts" h ON h."id" = s."host_id"
LEFT JOIN "threshold_policies" p ON p."id" = i."policy_id";
