import { RateLimiter } from "@tidemark/auth";
import { authenticateAgent, bearerToken, ingestBatch } from "@tidemark/db";
import { ingestBatchSchema, MAX_INGEST_BYTES } from "@tidemark/protocol";
import { getDatabase } from "~/server/database";
import { errorResponse, zodIssues } from "~/server/json-errors";
import { readBodyWithLimit } from "~/server/read-body";

export const dynamic = "force-dynamic";

/**
 * Per agent token: a burst of 1200 batches, then 20 a second. An agent ships a batch every few
 * seconds, so only a runaway or stolen token reaches it; TIDEMARK_INGEST_BATCHES_PER_MINUTE tunes it.
 */
const ingestBatches = new RateLimiter({ limit: Number(process.env.TIDEMARK_INGEST_BATCHES_PER_MINUTE) || 1200, windowMs: 60_000 });

/** Agents ship check results here in batches; see @tidemark/protocol's ingest schema. */
export async function POST(request: Request) {
  const db = await getDatabase();
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return errorResponse(401, "missing, unknown or revoked agent token (Authorization: Bearer tm_agent_…)");
  const allowance = ingestBatches.hit(agent.agentId, Date.now());
  if (!allowance.allowed) {
    const response = errorResponse(429, `this agent sends too many batches: retry in ${allowance.retryAfterSeconds} s`);
    response.headers.set("Retry-After", String(allowance.retryAfterSeconds));
    return response;
  }
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    return errorResponse(415, "send the batch as application/json");
  }
  const body = await readBodyWithLimit(request, MAX_INGEST_BYTES);
  if (body === null) return errorResponse(413, `a batch may be at most ${MAX_INGEST_BYTES} bytes: send smaller batches`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return errorResponse(400, `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = ingestBatchSchema.safeParse(json);
  if (!parsed.success) return errorResponse(400, "the batch does not match the ingest schema", { issues: zodIssues(parsed.error) });
  const result = await ingestBatch(db, { organizationId: agent.organizationId, agentId: agent.agentId, batch: parsed.data });
  return Response.json(result);
}
