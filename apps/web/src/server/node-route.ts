import type http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { securityHeaders } from "./security-headers.ts";

const gzip = promisify(zlib.gzip);

/** Answers from this size on are compressed for clients that accept gzip, as Next.js compresses its own. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A request body larger than this is refused (413) as soon as it is read past it: the largest
 * input a procedure takes is a Bischeck import (bischeck.xml and a thresholds file of up to 20 MB
 * each, zod's limits in @tidemark/api), which JSON's escaping of their quotes can make half again as long.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

async function readBody(req: http.IncomingMessage): Promise<Buffer | "too large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return "too large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Whether the request came over https, as src/proxy.ts decides it for pages. */
function overHttps(req: http.IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers["x-forwarded-proto"] === "https";
}

/**
 * A Request → Response route served straight from Node's HTTP server, with the headers src/proxy.ts
 * gives every API answer. The web server (src/main.ts) uses it for the API, where Next.js's
 * routing, proxy and request wrapping cost more CPU than the procedures themselves.
 */
export async function serveRoute(
  route: (request: Request) => Promise<Response>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const https = overHttps(req);
  for (const [name, value] of Object.entries(securityHeaders({ nonce: null, https, development: false }))) res.setHeader(name, value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req);
  if (body === "too large") {
    res
      .writeHead(413, { "content-type": "application/json" })
      .end(JSON.stringify({ error: `the request body is over ${MAX_BODY_BYTES} bytes` }));
    return;
  }
  // A client that goes away aborts the request, as it does under Next.js (long polls end).
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  let request: Request;
  try {
    request = new Request(`${https ? "https" : "http"}://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      body: body === undefined ? undefined : new Uint8Array(body),
      signal: abort.signal,
    });
  } catch {
    // A Host header or path no URL can hold.
    res
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: "the request's host or path is not a valid URL" }));
    return;
  }
  const response = await route(request);
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  let payload = Buffer.from(await response.arrayBuffer());
  res.setHeader("vary", [response.headers.get("vary"), "Accept-Encoding"].filter(Boolean).join(", "));
  if (payload.length >= COMPRESS_FROM_BYTES && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
    payload = await gzip(payload);
    res.setHeader("content-encoding", "gzip");
  }
  res.setHeader("content-length", payload.length);
  res.end(payload);
}

/** The API's paths: `/api/trpc/<procedure>[,<procedure>…][?…]`. */
const API_PREFIX = "/api/trpc/";

/**
 * Whether the web server answers this request path itself (src/main.ts). A path Next.js would
 * redirect first (src/proxy.ts: a segment whose %-escapes do not decode) is left to it.
 */
export function isDirectApiCall(url: string | undefined): boolean {
  if (!url?.startsWith(API_PREFIX)) return false;
  const query = url.indexOf("?");
  try {
    decodeURIComponent(query === -1 ? url : url.slice(0, query));
    return true;
  } catch {
    return false;
  }
}

/**
 * `GET /api/health` (with or without a query): answered straight from Node's HTTP server too, so
 * a probe (the start script, a load balancer, Docker's health check) does not wait for Next.js to
 * load a route on its first request: 2.8–3.7 s after the server listened, on a busy machine.
 */
export function isHealthCheck(url: string | undefined): boolean {
  return url === HEALTH_PATH || url?.startsWith(`${HEALTH_PATH}?`) === true;
}

const HEALTH_PATH = "/api/health";
