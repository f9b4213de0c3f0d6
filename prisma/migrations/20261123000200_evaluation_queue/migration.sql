-- Work for the worker, written in the same transaction as the points it refers to, so that an
-- accepted point is never left unevaluated: workers claim rows with a lease (claimed_until) and
-- delete them when done; a worker killed mid-run lets its lease lapse and another takes over.
CREATE TABLE "evaluation_queue" (
  "id" BIGSERIAL NOT NULL,
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "series_ids" BIGINT[] NOT NULL,
  "timestamps" TIMESTAMPTZ(3)[] NOT NULL,
  "values" DOUBLE PRECISION[] NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "claimed_until" TIMESTAMPTZ(3),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "evaluation_queue_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "evaluation_queue_claimed_until_id_idx" ON "evaluation_queue"("claimed_until", "id");

-- One row per scheduled run of a bischeck:// calculation: the unique key makes each due run
-- happen once however many workers there are.
CREATE TABLE "calculation_runs" (
  "service_id" UUID NOT NULL REFERENCES "services"("id") ON DELETE CASCADE,
  "due_at" TIMESTAMPTZ(3) NOT NULL,
  "claimed_until" TIMESTAMPTZ(3) NOT NULL,
  "finished_at" TIMESTAMPTZ(3),
  "error" TEXT,
  CONSTRAINT "calculation_runs_pkey" PRIMARY KEY ("service_id", "due_at")
);
CREATE INDEX "calculation_runs_finished_at_idx" ON "calculation_runs"("finished_at");
