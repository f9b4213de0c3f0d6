import { withDatabase } from "~/server/database";
import { agentStatusResponse } from "../handlers";

export const dynamic = "force-dynamic";

/** Agents report each configuration version applied or failed here; see handlers.ts. */
export async function POST(request: Request) {
  return withDatabase((db) => agentStatusResponse(db, request));
}
