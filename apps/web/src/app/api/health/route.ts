import { withDatabase } from "~/server/database";
import { healthResponse } from "~/server/health-response";

export const dynamic = "force-dynamic";

/** Liveness and what the database is; 503 with Retry-After while the database is unavailable. */
export async function GET() {
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
