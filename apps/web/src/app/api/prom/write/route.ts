import { promWriteResponse } from "@tidemark/api/http";
import { withDatabase } from "~/server/database";
import { countIngestedPoints, instrumented } from "~/server/observability";

export const dynamic = "force-dynamic";

/** Prometheus remote write; see @tidemark/api/http. */
export const POST = instrumented("/api/prom/write", (request: Request) =>
  withDatabase((db) => promWriteResponse(db, request, { pointsStored: countIngestedPoints("prometheus") })),
);
