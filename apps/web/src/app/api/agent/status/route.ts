import { agentStatusResponse } from "@tidemark/api/http";
import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";

export const dynamic = "force-dynamic";

/** Agents report each configuration version applied or failed here; see @tidemark/api/http. */
export const POST = instrumented("/api/agent/status", (request: Request) => withDatabase((db) => agentStatusResponse(db, request)));
