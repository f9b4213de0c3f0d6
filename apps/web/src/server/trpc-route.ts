import { withDatabase } from "./database.ts";
import { instrumented } from "./observability.ts";
import { trpcResponse } from "./trpc-response.ts";

/**
 * `/api/trpc` as served: the process's database, 503 while it is unavailable, measured and logged.
 * Both servers of the route use it: Next.js's route file and the web server's direct path for
 * the API (src/main.ts), so they cannot answer differently.
 */
export const trpcRoute = instrumented("/api/trpc", (request: Request) => withDatabase((db) => trpcResponse(db, request)));
