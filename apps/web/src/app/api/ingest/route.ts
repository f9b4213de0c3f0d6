import { authenticateAgent, bearerToken, ingestBatch } from "@tidemark/db";
import { ingestBatchSchema, MAX_INGEST_BYTES } from "@tidemark/protocol";
import { getDatabase } from "~/server/database";
import { errorResponse, zodIssues } from "~/server/json-errors";
import { readBodyWithLimit } from "~/server/read-body";

export const dynamic = "force-dynamic";

/** Agents ship check results here in batches; see @tidemark/protocol's ingest schema. */
export async function POST(request: Request) {
  const db = await getDatabase();
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return errorResponse(401, "missing, unknown or revoked agent token (Authorization: Bearer tm_agent_…)");
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
