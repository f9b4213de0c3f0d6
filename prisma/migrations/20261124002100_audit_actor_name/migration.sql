-- Who made a change, as people read it: an API token by its name, an agent by its name.
ALTER TABLE "audit_log" ADD COLUMN "actor_name" TEXT;
