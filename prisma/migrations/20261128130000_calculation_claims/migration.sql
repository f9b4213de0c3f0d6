-- One claim per organisation and due instant instead of one lease per calculation service.
-- A lease per service cost every run two row writes a tick (the claim's upsert and the finish's
-- update): 3 000 of each a 3 000-job tick, 30 000 at 30 000 jobs (docs/scaling.md, "Fifteenth
-- round"). The runs of an organisation due at one instant are now claimed, and finished, as one
-- row. The claim carries the deployed configuration's revision the worker read its calculations
-- at: workers that have not all read a new deployment yet each run the instant with their own
-- set of calculations (results are stored once: ingest skips points already stored), rather
-- than a new calculation losing its first run to a worker that does not know it.
CREATE TABLE "calculation_claims" (
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "due_at" TIMESTAMPTZ(3) NOT NULL,
  "revision" TEXT NOT NULL,
  "claimed_until" TIMESTAMPTZ(3) NOT NULL,
  "finished_at" TIMESTAMPTZ(3),
  "errors" JSONB,
  CONSTRAINT "calculation_claims_pkey" PRIMARY KEY ("organization_id", "due_at", "revision")
);

-- The services' latest runs need not carry over: a worker (re)started looks back one minute,
-- and a run made again stores nothing twice.
DROP TABLE "calculation_leases";
