import { deploymentSnapshotSchema, renderAgentConfig } from "@tidemark/config-render";
import type { Database } from "@tidemark/db/client";
import { authenticateAgent, bearerToken, markDelivered, nextConfigForAgent, recordAgentStatus } from "@tidemark/db/fleet";
import { organizationTimeZone } from "@tidemark/db/organizations";
import { agentStatusSchema } from "@tidemark/protocol";
import { z } from "zod";
import { readJsonBody } from "./json-body.ts";
import { errorResponse, zodIssues } from "./json-errors.ts";

/**
 * The agent's configuration channel, as plain Request → Response functions of a database so the
 * web's route files stay one line and the integration tests serve exactly this code on loopback.
 */

export interface LongPollTiming {
  /** How long a request is held when there is nothing newer (agents allow 40 s). */
  holdMs: number;
  /** How often the database is looked at while holding: LISTEN/NOTIFY does not cross connections on the embedded server. */
  checkEveryMs: number;
}

export const LONG_POLL: LongPollTiming = { holdMs: 25_000, checkEveryMs: 500 };

const afterSchema = z.coerce.number().int().min(0).max(2_147_483_647);

const UNAUTHORIZED = "missing, unknown or revoked agent token (Authorization: Bearer tm_agent_…)";

/** `GET /api/agent/config?after=<version>`: 200 with a newer AgentConfig for this agent, or 204 after holding. */
export async function agentConfigResponse(db: Database, request: Request, timing: LongPollTiming = LONG_POLL): Promise<Response> {
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return errorResponse(401, UNAUTHORIZED);
  const after = afterSchema.safeParse(new URL(request.url).searchParams.get("after") ?? "0");
  if (!after.success) return errorResponse(400, "after must be the version the agent runs (a whole number, 0 for none)");
  const deadline = Date.now() + timing.holdMs;
  for (;;) {
    const next = await nextConfigForAgent(db, agent.agentId, after.data);
    if (next) {
      const snapshot = deploymentSnapshotSchema.safeParse(next.snapshot);
      if (!snapshot.success) return errorResponse(500, `deployment ${next.version} holds a snapshot this server cannot read`);
      const timeZone = await organizationTimeZone(db, agent.organizationId);
      const config = renderAgentConfig(snapshot.data, { id: agent.agentId, name: agent.name }, next.version, timeZone);
      await markDelivered(db, next.deploymentId, agent.agentId);
      return Response.json(config, { headers: { "cache-control": "no-store" } });
    }
    const wait = Math.min(timing.checkEveryMs, deadline - Date.now());
    if (wait <= 0 || request.signal.aborted) return new Response(null, { status: 204 });
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** `POST /api/agent/status`: the agent applied (or could not apply) a version. */
export async function agentStatusResponse(db: Database, request: Request): Promise<Response> {
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return errorResponse(401, UNAUTHORIZED);
  const body = await readJsonBody(request, 64 * 1024);
  if (!body.ok) return body.response;
  const parsed = agentStatusSchema.safeParse(body.json);
  if (!parsed.success) return errorResponse(400, "the report does not match the agent status schema", { issues: zodIssues(parsed.error) });
  const recorded = await recordAgentStatus(db, agent.agentId, parsed.data);
  if (!recorded) return errorResponse(404, `no deployment of version ${parsed.data.version} targets agent ${agent.name}`);
  return Response.json({ recorded: true });
}
