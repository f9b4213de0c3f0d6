import { healthRoute } from "~/server/health-route";

export const dynamic = "force-dynamic";

/** Liveness and what the database is (server/health-route.ts; src/main.ts serves it directly). */
export async function GET() {
  return healthRoute();
}
