import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";
import { agentConfigResponse } from "../handlers";

export const dynamic = "force-dynamic";

/** Agents long-poll here for their configuration; see handlers.ts. */
export const GET = instrumented("/api/agent/config", (request: Request) => withDatabase((db) => agentConfigResponse(db, request)));
