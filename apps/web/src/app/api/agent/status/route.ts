import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { agentStatusResponse } from "../handlers";

export const dynamic = "force-dynamic";

/** Agents report each configuration version applied or failed here; see handlers.ts. */
export const POST = instrumented("/api/agent/status", (request: Request) => withDatabase((db) => agentStatusResponse(db, request)));
