import { pino } from "pino";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * The web process's logs (pino, JSON lines on stdout, as the worker and the agent write them) and
 * its Prometheus metrics, served on /metrics. Kept on globalThis: dev-mode module reloading would
 * otherwise register the metrics twice.
 */

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "tidemark_web_" });
  return {
    log: pino({ base: { component: "web" } }),
    registry,
    requestSeconds: new Histogram({
      name: "tidemark_web_request_duration_seconds",
      help: "API request latency, by route, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    ingestPoints: new Counter({
      name: "tidemark_web_ingest_points_total",
      help: "Points stored through ingest, by source (agent batches, Prometheus remote write)",
      labelNames: ["source"],
      registers: [registry],
    }),
    errors: new Counter({
      name: "tidemark_web_errors_total",
      help: "Requests that failed on the server's side (5xx), by route",
      labelNames: ["route"],
      registers: [registry],
    }),
  };
}

const holder = globalThis as unknown as { tidemarkWebObservability?: ReturnType<typeof create> };
holder.tidemarkWebObservability ??= create();
export const observability = holder.tidemarkWebObservability;

/** Counts the points an ingest route stored, by source: agent batches or Prometheus remote write. */
export function countIngestedPoints(source: "agent" | "prometheus"): (points: number) => void {
  return (points) => observability.ingestPoints.inc({ source }, points);
}

/**
 * A route handler measured: its latency by route (the route's pattern, never the raw path, so
 * that ids do not multiply the series), and an exception logged, counted and answered with a 500
 * that says no more than that.
 */
export function instrumented<A extends unknown[]>(route: string, handler: (request: Request, ...rest: A) => Promise<Response>) {
  return async (request: Request, ...rest: A): Promise<Response> => {
    const stop = observability.requestSeconds.startTimer({ route, method: request.method });
    let response: Response;
    try {
      response = await handler(request, ...rest);
    } catch (error) {
      observability.log.error({ route, method: request.method, err: error }, "request failed");
      response = Response.json({ error: "internal error: the server logged it" }, { status: 500 });
    }
    if (response.status >= 500) observability.errors.inc({ route });
    stop({ status: String(response.status) });
    return response;
  };
}
