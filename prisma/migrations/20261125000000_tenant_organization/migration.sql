-- Every tenant table carries its organisation (issue 22). The nine tables that reached theirs
-- only through a parent row get `organization_id`, filled from that parent, and their keys to
-- their parents become (organization_id, parent_id) → parent(organization_id, id); so do the
-- keys of a service to its host, an item to its service and an alert to its series. That is the
-- shape Citus needs to distribute the tables by organisation with each child co-located with its
-- parent, and the database itself now refuses a row whose organisation is not its parent's: a
-- write that crossed tenants through a wrong id fails instead of landing.
--
-- Each composite key replaces a single-column one, so an insert still makes one check against the
-- parent, through the parent's new unique (organization_id, id) index. Updates that leave both
-- columns alone (the hot per-cycle rewrites of item_states, alert_tracks and calculation_leases)
-- check nothing and stay HOT: no indexed column changes.
--
-- Left single-column: keys that SET NULL (on a composite key they would null organization_id
-- too) and metric_points' (a new key would rewrite its compressed chunks; ingest writes its
-- organisation from the batch's).

-- The parents' (organization_id, id), which the keys reference. Where a parent had an index on
-- organization_id alone, the new one leads with it and takes its place.
CREATE UNIQUE INDEX "series_organization_id_id_key" ON "series" ("organization_id", "id");
CREATE UNIQUE INDEX "alerts_organization_id_id_key" ON "alerts" ("organization_id", "id");
CREATE UNIQUE INDEX "hosts_organization_id_id_key" ON "hosts" ("organization_id", "id");
CREATE UNIQUE INDEX "services_organization_id_id_key" ON "services" ("organization_id", "id");
DROP INDEX "services_organization_id_idx";
CREATE UNIQUE INDEX "deployments_organization_id_id_key" ON "deployments" ("organization_id", "id");
CREATE UNIQUE INDEX "agents_organization_id_id_key" ON "agents" ("organization_id", "id");
CREATE UNIQUE INDEX "webhooks_organization_id_id_key" ON "webhooks" ("organization_id", "id");
DROP INDEX "webhooks_organization_id_idx";
CREATE UNIQUE INDEX "threshold_policies_organization_id_id_key" ON "threshold_policies" ("organization_id", "id");
CREATE UNIQUE INDEX "holiday_calendars_organization_id_id_key" ON "holiday_calendars" ("organization_id", "id");

-- Each key (child, column → parent), all ON DELETE CASCADE. A child without organization_id
-- takes it from the parent of its first key; notification_deliveries' alert_id has never had a
-- key (a delivery record outlives nothing it points to), so its receiver's is the one.
-- state_changes is a hypertable on TimescaleDB, never compressed: the column, the backfill and
-- the key reach its chunks.
DO $$
DECLARE
  k record;
BEGIN
  FOR k IN SELECT * FROM (VALUES
    ('item_states', 'series_id', 'series'),
    ('alert_tracks', 'series_id', 'series'),
    ('state_changes', 'series_id', 'series'),
    ('alert_events', 'alert_id', 'alerts'),
    ('notification_deliveries', 'webhook_id', 'webhooks'),
    ('calculation_leases', 'service_id', 'services'),
    ('deployment_targets', 'deployment_id', 'deployments'),
    ('deployment_targets', 'agent_id', 'agents'),
    ('threshold_periods', 'policy_id', 'threshold_policies'),
    ('holiday_days', 'calendar_id', 'holiday_calendars'),
    ('services', 'host_id', 'hosts'),
    ('service_items', 'service_id', 'services'),
    ('alerts', 'series_id', 'series')
  ) AS keys(child, parent_column, parent)
  LOOP
    IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                   WHERE table_schema = 'public' AND table_name = k.child AND column_name = 'organization_id') THEN
      EXECUTE format('ALTER TABLE %I ADD COLUMN organization_id UUID', k.child);
      EXECUTE format('UPDATE %I c SET organization_id = p.organization_id FROM %I p WHERE p.id = c.%I', k.child, k.parent, k.parent_column);
      EXECUTE format('ALTER TABLE %I ALTER COLUMN organization_id SET NOT NULL', k.child);
    END IF;
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', k.child, k.child || '_' || k.parent_column || '_fkey');
    EXECUTE format(
      'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (organization_id, %I) REFERENCES %I (organization_id, id) ON DELETE CASCADE',
      k.child, k.child || '_organization_id_' || k.parent_column || '_fkey', k.parent_column, k.parent);
  END LOOP;
END
$$;

-- One row per series (item_states, alert_tracks) or per service (calculation_leases): the
-- primary key is the key to the parent, so it carries the organisation as well.
ALTER TABLE "item_states" DROP CONSTRAINT "item_states_pkey", ADD CONSTRAINT "item_states_pkey" PRIMARY KEY ("organization_id", "series_id");
ALTER TABLE "alert_tracks" DROP CONSTRAINT "alert_tracks_pkey", ADD CONSTRAINT "alert_tracks_pkey" PRIMARY KEY ("organization_id", "series_id");
ALTER TABLE "calculation_leases"
  DROP CONSTRAINT "calculation_leases_pkey",
  ADD CONSTRAINT "calculation_leases_pkey" PRIMARY KEY ("organization_id", "service_id");
