import { withDatabase } from "~/server/database";
import { ingestResponse } from "~/server/ingest-response";

export const dynamic = "force-dynamic";

/** Agents ship check results here in batches; see ingest-response.ts. */
export async function POST(request: Request) {
  return withDatabase((db) => ingestResponse(db, request));
}
