import { withDatabase } from "./database.ts";
import { healthResponse } from "./health-response.ts";

/**
 * `/api/health` as served: liveness and what the database is; 503 with Retry-After while the
 * database is unavailable. Both servers of the route use it (Next.js's route file and the web
 * server's direct path, src/main.ts), so they cannot answer differently.
 */
export async function healthRoute(): Promise<Response> {
  try {
    return await withDatabase(healthResponse);
  } catch (error) {
    // Reachable but failing (say, a broken search_path): still 503, with the reason for people.
    return Response.json(
      { status: "error", database: { reachable: false, error: error instanceof Error ? error.message : String(error) } },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
}
