-- Rate-limit counters live in the database, so that several web instances agree (a token bucket
-- per key: tokens left, and when they were counted).
CREATE TABLE "rate_limit_buckets" (
  "key" TEXT NOT NULL,
  "tokens" DOUBLE PRECISION NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "rate_limit_buckets_updated_at_idx" ON "rate_limit_buckets" ("updated_at");

-- Browsers that signed in to an account before (a long-lived device cookie, kept as its hash):
-- password guessing against the account does not lock them out.
CREATE TABLE "known_devices" (
  "token_hash" TEXT NOT NULL,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "known_devices_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "known_devices_user_id_idx" ON "known_devices" ("user_id");
