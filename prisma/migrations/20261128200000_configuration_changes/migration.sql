-- What the worker polls to know that a configuration it holds may have changed (its evaluated
-- items, its calculations, its freshness watch). Before, each look computed digests over every
-- configuration row (rows-digest): 23-62 ms of PostgreSQL a look at 30 000 jobs, growing with the
-- fleet, several looks every 10 s per worker. Now every statement that changes a configuration
-- row adds one row here for each organisation it touched, and a look counts them.
--
-- Why a log of inserts and not a counter row per organisation: a counter is a row that every
-- configuration statement of the organisation updates, so its lock is held from that statement to
-- the commit; a transaction waiting for a row another holds while holding the counter deadlocks
-- with it. Inserts never wait for one another. Why a count and not the newest id: ids are taken in
-- statement order and commit in another, so a change committed after a newer id was seen would
-- never be noticed; the count only grows, whatever the commit order.
--
-- The worker folds rows older than a minute into configuration_change_counts (in one statement,
-- so a look sees the same total before and after). Rows are never deleted with their
-- organisation: a total that went down could come back to a value a worker already saw.
CREATE TABLE "configuration_changes" (
  "id" BIGINT GENERATED ALWAYS AS IDENTITY,
  "organization_id" UUID NOT NULL,
  "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "configuration_changes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "configuration_changes_organization_id_idx" ON "configuration_changes" ("organization_id");

CREATE TABLE "configuration_change_counts" (
  "organization_id" UUID NOT NULL,
  "changes" BIGINT NOT NULL,
  CONSTRAINT "configuration_change_counts_pkey" PRIMARY KEY ("organization_id")
);

-- Every organisation has a revision to start from.
INSERT INTO "configuration_change_counts" ("organization_id", "changes") SELECT "id", 1 FROM "organizations";

-- Statement-level, so that an import of 10 000 hosts adds one row, not one per host.
CREATE FUNCTION "configuration_rows_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO configuration_changes (organization_id) SELECT DISTINCT organization_id FROM new_rows ORDER BY 1;
  RETURN NULL;
END $$;

CREATE FUNCTION "configuration_rows_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO configuration_changes (organization_id) SELECT DISTINCT organization_id FROM old_rows ORDER BY 1;
  RETURN NULL;
END $$;

-- Row-level, for the tables whose other columns change all the time (an agent's last call).
CREATE FUNCTION "configuration_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO configuration_changes (organization_id)
  VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.organization_id ELSE NEW.organization_id END);
  RETURN NULL;
END $$;

CREATE FUNCTION "organization_configuration_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO configuration_changes (organization_id) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;

-- A table's transition tables serve one event each, hence three triggers a table.
CREATE TRIGGER "hosts_inserted_configuration" AFTER INSERT ON "hosts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "hosts_updated_configuration" AFTER UPDATE ON "hosts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "hosts_deleted_configuration" AFTER DELETE ON "hosts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_removed"();

CREATE TRIGGER "services_inserted_configuration" AFTER INSERT ON "services" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "services_updated_configuration" AFTER UPDATE ON "services" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "services_deleted_configuration" AFTER DELETE ON "services" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_removed"();

CREATE TRIGGER "service_items_inserted_configuration" AFTER INSERT ON "service_items" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "service_items_updated_configuration" AFTER UPDATE ON "service_items" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "service_items_deleted_configuration" AFTER DELETE ON "service_items" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_removed"();

CREATE TRIGGER "deployed_items_inserted_configuration" AFTER INSERT ON "deployed_items" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "deployed_items_updated_configuration" AFTER UPDATE ON "deployed_items" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_added"();
CREATE TRIGGER "deployed_items_deleted_configuration" AFTER DELETE ON "deployed_items" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "configuration_rows_removed"();

-- An agent's name (its heartbeat item) and revocation; not its calls, reports or last contact.
CREATE TRIGGER "agents_added_or_removed_configuration" AFTER INSERT OR DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION "configuration_row_changed"();
CREATE TRIGGER "agents_updated_configuration" AFTER UPDATE OF "name", "revoked_at" ON "agents"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at")
  EXECUTE FUNCTION "configuration_row_changed"();

-- An organisation's time zone (its schedules' clock); its creation and removal.
CREATE TRIGGER "organizations_added_or_removed_configuration" AFTER INSERT OR DELETE ON "organizations"
  FOR EACH ROW EXECUTE FUNCTION "organization_configuration_changed"();
CREATE TRIGGER "organizations_updated_configuration" AFTER UPDATE OF "time_zone" ON "organizations"
  FOR EACH ROW WHEN (OLD."time_zone" IS DISTINCT FROM NEW."time_zone")
  EXECUTE FUNCTION "organization_configuration_changed"();
