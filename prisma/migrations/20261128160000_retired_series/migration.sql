-- Series the configuration stopped evaluating: the items a deployment removed, the heartbeat of a
-- revoked agent. No result will ever come to close an alert open on such a series, so the worker
-- closes it (and tells the receivers its firing went to); until then, and for a while after, the
-- evaluator opens no alert on it (a point queued before the deployment, evaluated by a worker that
-- has not read it yet). A series deployed again is watched again; the worker deletes its row.
CREATE TABLE "retired_series" (
  "organization_id" UUID NOT NULL,
  "series_id" BIGINT NOT NULL,
  "reason" TEXT NOT NULL,
  "retired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "retired_series_pkey" PRIMARY KEY ("organization_id", "series_id"),
  CONSTRAINT "retired_series_organization_id_series_id_fkey" FOREIGN KEY ("organization_id", "series_id")
    REFERENCES "series" ("organization_id", "id") ON DELETE CASCADE
);
