import { withDatabase } from "~/server/database";
import { ingestResponse } from "~/server/ingest-response";
import { instrumented } from "~/server/observability";

export const dynamic = "force-dynamic";

/** Agents ship check results here in batches; see ingest-response.ts. */
export const POST = instrumented("/api/ingest", (request: Request) => withDatabase((db) => ingestResponse(db, request)));
