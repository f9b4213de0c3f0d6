-- The keys between tenant tables that SET NULL carry the organisation too (issue 22; the others
-- became composite in 20261125000000_tenant_organization): a service's and an ingest batch's
-- agent, an item's policy and a policy's holiday calendar. `SET NULL (column)` (PostgreSQL 15)
-- nulls only the parent's id when the parent goes, so the row keeps its organisation; a key with
-- a null column is not checked, as before. The database now refuses a service run by, or an item
-- judged by, another organisation's agent or policy. A reference that already crossed
-- organisations (none should: every writer scopes its ids) is nulled first, as the parent's
-- deletion would, and counted in a notice, so that the key can be added and the upgrade go on.
DO $$
DECLARE
  k record;
  crossed bigint;
BEGIN
  FOR k IN SELECT * FROM (VALUES
    ('services', 'agent_id', 'agents'),
    ('ingest_batches', 'agent_id', 'agents'),
    ('service_items', 'policy_id', 'threshold_policies'),
    ('threshold_policies', 'holiday_calendar_id', 'holiday_calendars')
  ) AS keys(child, parent_column, parent)
  LOOP
    EXECUTE format(
      'UPDATE %I c SET %I = NULL WHERE c.%I IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM %I p WHERE p.id = c.%I AND p.organization_id = c.organization_id)',
      k.child, k.parent_column, k.parent_column, k.parent, k.parent_column);
    GET DIAGNOSTICS crossed = ROW_COUNT;
    IF crossed > 0 THEN
      RAISE NOTICE '%: % rows named another organisation''s % in %; set to null', k.child, crossed, k.parent, k.parent_column;
    END IF;
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', k.child, k.child || '_' || k.parent_column || '_fkey');
    EXECUTE format(
      'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (organization_id, %I) REFERENCES %I (organization_id, id) ON DELETE SET NULL (%I)',
      k.child, k.child || '_organization_id_' || k.parent_column || '_fkey', k.parent_column, k.parent, k.parent_column);
  END LOOP;
END
$$;
