import autocannon from "autocannon";
import { summarize } from "./stats.ts";

/** One HTTP request a load run repeats (a tRPC call: a GET with its input in the URL, or a POST). */
export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  body?: string;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** Responses other than 2xx (a refused session, 503 when the database is saturated): a run with any misses its goals. */
  non2xx: number;
  status4xx: number;
  status5xx: number;
  errors: number;
  timeouts: number;
  latencyMs: ReturnType<typeof summarize>;
}

/**
 * Drives one request with autocannon for `seconds`: `connections` keep-alive connections, each
 * signed in with its own session cookie (connection i uses cookies[i % cookies.length], so 50
 * connections over 50 cookies are 50 users), back to back or, with `requestsPerSecond`, at that
 * fixed overall rate. Latencies are every response's, summarised with the other scenarios' percentiles.
 */
export async function httpLoad(opts: {
  url: string;
  request: LoadRequest;
  cookies: readonly string[];
  connections: number;
  seconds: number;
  requestsPerSecond?: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let nextClient = 0;
  let finished: (error: unknown, result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = (error, result) => (error ? reject(error) : resolve(result));
  });
  const instance = autocannon(
    {
      url: opts.url,
      requests: [{ method: opts.request.method, path: opts.request.path, body: opts.request.body }],
      connections: opts.connections,
      duration: opts.seconds,
      timeout: 30,
      ...(opts.requestsPerSecond ? { overallRate: opts.requestsPerSecond } : {}),
      setupClient: (client) => {
        const cookie = opts.cookies[nextClient++ % opts.cookies.length];
        client.setHeaders({ "content-type": "application/json", cookie: `tm_session=${cookie}` });
      },
    },
    (error, result) => finished(error, result),
  );
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const result = await done;
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round((result.requests.total / opts.seconds) * 10) / 10,
    non2xx: result.non2xx,
    status4xx: result["4xx"],
    status5xx: result["5xx"],
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: summarize(latencies),
  };
}
