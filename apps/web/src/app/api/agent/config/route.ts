import { withDatabase } from "~/server/database";
import { agentConfigResponse } from "../handlers";

export const dynamic = "force-dynamic";

/** Agents long-poll here for their configuration; see handlers.ts. */
export async function GET(request: Request) {
  return withDatabase((db) => agentConfigResponse(db, request));
}
