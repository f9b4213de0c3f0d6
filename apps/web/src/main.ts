import http from "node:http";
import next from "next";
import { healthRoute } from "./server/health-route.ts";
import { isDirectApiCall, isHealthCheck, serveRoute } from "./server/node-route.ts";
import { stampPeerAddress } from "./server/peer-address.ts";
import { trpcRoute } from "./server/trpc-route.ts";

/**
 * The production web server (`npm start`, the Docker image): Next.js for pages and every other
 * route, and the dashboard's API (`/api/trpc/…`) and `/api/health` answered straight from Node's
 * HTTP server by the same route functions Next.js serves (server/trpc-route.ts,
 * server/health-route.ts). Under Next.js an API call spent about 1.5 ms of CPU in routing, the
 * proxy and request wrapping on top of the procedure's own 0.9 ms (bench/scenarios/api.ts); the
 * API is most of the server's traffic. A health probe no longer waits for Next.js to load a route.
 * Run from the web app's folder (Next.js finds its build there); PORT chooses the port (3000).
 */

/** The route this server answers itself for `url`, or null for Next.js. */
function directRoute(url: string | undefined): ((request: Request) => Promise<Response>) | null {
  if (isDirectApiCall(url)) return trpcRoute;
  if (isHealthCheck(url)) return healthRoute;
  return null;
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  stampPeerAddress();
  const app = next({ dev: false, dir: process.cwd(), port });
  const nextHandler = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    const route = directRoute(req.url);
    const served = route ? serveRoute(route, req, res) : nextHandler(req, res);
    served.catch((error: unknown) => {
      console.error("request failed:", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "internal error: the server logged it" }));
    });
  });
  server.listen(port, () => console.log(`web: listening on port ${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => {
      server.close();
      server.closeAllConnections();
      void app.close().finally(() => process.exit(0));
    });
}

await main();
