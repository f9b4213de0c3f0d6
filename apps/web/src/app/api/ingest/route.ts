import { ingestResponse } from "@tidemark/api/http";
import { withDatabase } from "~/server/database";
import { countIngestedPoints, instrumented } from "~/server/observability";

export const dynamic = "force-dynamic";

/** Agents ship check results here in batches; see @tidemark/api/http. */
export const POST = instrumented("/api/ingest", (request: Request) =>
  withDatabase((db) => ingestResponse(db, request, { pointsStored: countIngestedPoints("agent") })),
);
