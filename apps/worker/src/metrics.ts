import http from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** The worker's Prometheus metrics, served on /metrics with /health beside it. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "tidemark_worker_" });
  return {
    registry,
    pointsEvaluated: new Counter({
      name: "tidemark_worker_points_evaluated_total",
      help: "Queued points evaluated against their thresholds",
      registers: [registry],
    }),
    batches: new Counter({ name: "tidemark_worker_evaluation_batches_total", help: "Evaluation batches committed", registers: [registry] }),
    errors: new Counter({
      name: "tidemark_worker_errors_total",
      help: "Failures, by component",
      labelNames: ["component"],
      registers: [registry],
    }),
    batchSeconds: new Histogram({
      name: "tidemark_worker_evaluation_batch_seconds",
      help: "Time to claim, evaluate and commit one batch",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    queueLagSeconds: new Gauge({
      name: "tidemark_worker_queue_lag_seconds",
      help: "Age of the oldest queued point batch",
      registers: [registry],
    }),
    queueRows: new Gauge({ name: "tidemark_worker_queue_rows", help: "Point batches waiting for evaluation", registers: [registry] }),
    calculations: new Counter({
      name: "tidemark_worker_calculations_total",
      help: "bischeck:// calculation runs made by this worker",
      registers: [registry],
    }),
    phaseSeconds: new Counter({
      name: "tidemark_worker_evaluation_phase_seconds_total",
      help: "Time spent per evaluation phase: claim, load (window catch-up, states), evaluate, alerts, write, commit",
      labelNames: ["phase"],
      registers: [registry],
    }),
    windowPoints: new Gauge({
      name: "tidemark_worker_window_points",
      help: "Points held in the in-memory series window",
      registers: [registry],
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

export function serveMetrics(metrics: WorkerMetrics, port: number, health: () => Record<string, unknown>): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    if (req.url === "/metrics") {
      res.writeHead(200, { "content-type": metrics.registry.contentType });
      res.end(await metrics.registry.metrics());
    } else if (req.url === "/health") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(health()));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
