import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { promWriteResponse } from "./handler";

export const dynamic = "force-dynamic";

/** Prometheus remote write; see ./handler.ts. */
export const POST = instrumented("/api/prom/write", (request: Request) => withDatabase((db) => promWriteResponse(db, request)));
