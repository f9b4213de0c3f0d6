import type { Database } from "@tidemark/db/client";
import { authenticateAgent, bearerToken } from "@tidemark/db/fleet";
import { futurePointIssues, ingestBatchSchema, MAX_INGEST_BYTES } from "@tidemark/protocol";
import { spendIngestAllowance } from "./ingest-limit.ts";
import { storeIngestBatch } from "./ingest-store.ts";
import { readJsonBody } from "./json-body.ts";
import { errorResponse, zodIssues } from "./json-errors.ts";
import type { PointsStored } from "./points-stored.ts";

/**
 * `POST /api/ingest`: agents ship check results here in batches (see @tidemark/protocol's ingest
 * schema). A plain Request → Response function of a database, so the integration tests call it.
 */
export async function ingestResponse(
  db: Database,
  request: Request,
  { now = Date.now(), pointsStored }: { now?: number; pointsStored?: PointsStored } = {},
): Promise<Response> {
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return errorResponse(401, "missing, unknown or revoked agent token (Authorization: Bearer tm_agent_…)");
  const allowance = await spendIngestAllowance(db, `agent:${agent.agentId}`);
  if (!allowance.allowed) {
    const response = errorResponse(429, `this agent sends too many batches: retry in ${allowance.retryAfterSeconds} s`);
    response.headers.set("Retry-After", String(allowance.retryAfterSeconds));
    return response;
  }
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    return errorResponse(415, "send the batch as application/json");
  }
  const body = await readJsonBody(request, MAX_INGEST_BYTES);
  if (!body.ok) return body.response;
  const parsed = ingestBatchSchema.safeParse(body.json);
  if (!parsed.success) return errorResponse(400, "the batch does not match the ingest schema", { issues: zodIssues(parsed.error) });
  const future = futurePointIssues(parsed.data, now);
  if (future.length > 0) return errorResponse(400, "the batch holds points stamped in the future", { issues: future });
  const result = await storeIngestBatch(db, { organizationId: agent.organizationId, agentId: agent.agentId, batch: parsed.data });
  pointsStored?.(result.accepted);
  return Response.json(result);
}
