import { agentConfigResponse } from "@tidemark/api/http";
import { withDatabase } from "~/server/database";
import { instrumented } from "~/server/observability";

export const dynamic = "force-dynamic";

/** Agents long-poll here for their configuration; see @tidemark/api/http. */
export const GET = instrumented("/api/agent/config", (request: Request) => withDatabase((db) => agentConfigResponse(db, request)));
