-- Which worker evaluated an organisation last: a worker that finds its own id here knows that
-- its in-memory window already holds every point evaluated since, and skips catching up.
CREATE TABLE "evaluation_cursors" (
  "organization_id" UUID NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "worker_id" TEXT NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "evaluation_cursors_pkey" PRIMARY KEY ("organization_id")
);
