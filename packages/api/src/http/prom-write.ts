import { createHash } from "node:crypto";
import { hashToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { authenticateAgent, bearerToken } from "@tidemark/db/fleet";
import { storeRemoteWrite } from "@tidemark/db/metrics";
import { type AuditActor, agentActor, authenticateApiToken } from "@tidemark/db/organizations";
import { decodeWriteRequest, RemoteWriteError, remoteWriteResults, type SeriesMapping, seriesMappingSchema } from "@tidemark/prometheus";
import { futurePointIssues, MAX_INGEST_BYTES, MAX_INGEST_RESULTS } from "@tidemark/protocol";
import { spendIngestAllowance } from "./ingest-limit.ts";
import { errorResponse, zodIssues } from "./json-errors.ts";
import type { PointsStored } from "./points-stored.ts";
import { readBytesWithLimit } from "./read-body.ts";

/**
 * `POST /api/prom/write`: Prometheus remote write 1.0 (snappy-compressed protobuf). Authorised by
 * an agent token or an organisation API token (editor or admin), as `remote_write.authorization`.
 * The label mapping can be changed per remote_write block with query parameters
 * (`?host=<label>&service=<label>`). Answers 204 when stored; 4xx (which Prometheus does not retry)
 * for what resending cannot fix; 429 with Retry-After when the sender is too fast.
 */

const UNAUTHORIZED = "missing, unknown or revoked token: send an agent token (tm_agent_…) or an editor's API token (tm_api_…) as Bearer";

/** A decompressed request at most this large: Prometheus sends 2000 samples (≈ 200 kB) by default. */
const MAX_DECODED_BYTES = 8 * MAX_INGEST_BYTES;

interface Writer {
  organizationId: string;
  agentId: string | null;
  /** Who the audit log says created series: the agent, or the API token by name. */
  actor: AuditActor;
  /** What the rate limit counts. */
  id: string;
}

async function authenticate(db: Database, bearer: string | null): Promise<Writer | null> {
  if (!bearer) return null;
  if (bearer.startsWith("tm_agent_")) {
    const agent = await authenticateAgent(db, bearer);
    return agent
      ? {
          organizationId: agent.organizationId,
          agentId: agent.agentId,
          id: agent.agentId,
          actor: agentActor(agent.organizationId, agent.name),
        }
      : null;
  }
  if (bearer.startsWith("tm_api_")) {
    const session = await authenticateApiToken(db, hashToken(bearer));
    if (!session || session.role === "viewer") return null;
    const actor: AuditActor = { organizationId: session.organizationId, userId: session.userId, kind: "api-token", name: session.name };
    return { organizationId: session.organizationId, agentId: null, id: session.sessionId, actor };
  }
  return null;
}

function mappingFrom(url: URL): { ok: true; mapping: SeriesMapping } | { ok: false; response: Response } {
  const parsed = seriesMappingSchema.safeParse({
    hostLabel: url.searchParams.get("host") ?? undefined,
    serviceLabel: url.searchParams.get("service") ?? undefined,
  });
  if (parsed.success) return { ok: true, mapping: parsed.data };
  return {
    ok: false,
    response: errorResponse(400, "host and service must name labels ([a-zA-Z_][a-zA-Z0-9_]*)", { issues: zodIssues(parsed.error) }),
  };
}

export async function promWriteResponse(
  db: Database,
  request: Request,
  { now = Date.now(), pointsStored }: { now?: number; pointsStored?: PointsStored } = {},
): Promise<Response> {
  const writer = await authenticate(db, bearerToken(request.headers.get("authorization")));
  if (!writer) return errorResponse(401, UNAUTHORIZED);
  // Per token, as for the agents' batches: Prometheus sends a request per shard every few seconds.
  const allowance = await spendIngestAllowance(db, `prom:${writer.id}`);
  if (!allowance.allowed) {
    const response = errorResponse(429, `this token sends too many requests: retry in ${allowance.retryAfterSeconds} s`);
    response.headers.set("Retry-After", String(allowance.retryAfterSeconds));
    return response;
  }
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/x-protobuf"))
    return errorResponse(415, "send remote write as application/x-protobuf (Prometheus' remote_write does)");
  const encoding = (request.headers.get("content-encoding") ?? "snappy").toLowerCase();
  if (encoding !== "snappy") return errorResponse(415, `content-encoding ${encoding} is not supported: remote write 1.0 uses snappy`);
  const mapping = mappingFrom(new URL(request.url));
  if (!mapping.ok) return mapping.response;
  const body = await readBytesWithLimit(request, MAX_INGEST_BYTES);
  if (body === null)
    return errorResponse(413, `a request may be at most ${MAX_INGEST_BYTES} bytes: lower queue_config.max_samples_per_send`);
  let decoded: ReturnType<typeof remoteWriteResults>;
  try {
    decoded = remoteWriteResults(
      decodeWriteRequest(body, { maxDecodedBytes: MAX_DECODED_BYTES, maxSamples: MAX_INGEST_RESULTS }),
      mapping.mapping,
    );
  } catch (error) {
    if (error instanceof RemoteWriteError) return errorResponse(error.status, error.message);
    throw error;
  }
  // The agents' rule: a point from the future would be its series' newest until that time came.
  const future = futurePointIssues(decoded, now, "the Prometheus server");
  if (future.length > 0) return errorResponse(400, "the request holds samples stamped in the future", { issues: future });
  // The same body (a retry) gets the same batch id and is stored once.
  const batchId = `prom:${createHash("sha256").update(body).digest("base64url")}`;
  const stored = await storeRemoteWrite(db, {
    organizationId: writer.organizationId,
    writer: writer.actor,
    agentId: writer.agentId,
    batchId,
    ...decoded,
  });
  pointsStored?.(stored.accepted);
  return new Response(null, {
    status: 204,
    headers: {
      "x-tidemark-accepted": String(stored.accepted),
      "x-tidemark-created": String(stored.created),
      "x-tidemark-unknown-series": String(stored.unknownSeries.length),
      "x-tidemark-duplicate": String(stored.duplicate),
    },
  });
}
