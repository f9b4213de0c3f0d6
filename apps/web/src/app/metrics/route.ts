import { bearerToken } from "@tidemark/db/fleet";
import { observability } from "../../server/observability.ts";

export const dynamic = "force-dynamic";

/**
 * Prometheus scrapes the web process here. With TIDEMARK_METRICS_TOKEN set, only a request
 * bearing it (`authorization: credentials:` in the scrape config) gets the metrics.
 */
export async function GET(request: Request) {
  const token = process.env.TIDEMARK_METRICS_TOKEN;
  if (token && bearerToken(request.headers.get("authorization")) !== token) {
    return Response.json({ error: "send the metrics token as Bearer (TIDEMARK_METRICS_TOKEN)" }, { status: 401 });
  }
  return new Response(await observability.registry.metrics(), { headers: { "content-type": observability.registry.contentType } });
}
