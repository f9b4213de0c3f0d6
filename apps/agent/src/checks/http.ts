import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { errorText, firstLine } from "./types.ts";

/**
 * http(s):// — one request per run, then per item: `status` (the HTTP status code), `latency`
 * (milliseconds until the response headers), or a path into a JSON body (`$.data.count`,
 * `items[0].size`) that must hold a number. 2xx and 3xx are OK, anything else CRITICAL.
 */
export async function runHttpCheck(check: AgentCheck, signal: AbortSignal): Promise<CheckResult[]> {
  const ts = Date.now();
  const started = performance.now();
  const needsBody = check.items.some((i) => !["status", "latency"].includes(i.exec.trim()));
  let response: Response;
  let body: unknown;
  let latency: number;
  try {
    response = await fetch(check.url, { signal, redirect: "manual", headers: { "user-agent": "tidemark-agent" } });
    latency = Math.round((performance.now() - started) * 10) / 10;
    if (needsBody) {
      const text = await response.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    } else {
      await response.body?.cancel();
    }
  } catch (error) {
    const output = firstLine(signal.aborted ? `timed out after ${check.timeoutMs} ms` : `request failed: ${errorText(error)}`);
    return check.items.map((item) => ({ key: item.key, ts, value: null, status: 2, output }));
  }
  const ok = response.status >= 200 && response.status < 400;
  const status = ok ? 0 : 2;
  const summary = `HTTP ${response.status} in ${latency} ms`;
  return check.items.map((item) => {
    const exec = item.exec.trim();
    if (exec === "status") return { key: item.key, ts, value: response.status, status, output: summary };
    if (exec === "latency") return { key: item.key, ts, value: latency, status, output: summary };
    const value = jsonPath(body, exec);
    if (typeof value === "number" && Number.isFinite(value)) return { key: item.key, ts, value, status, output: summary };
    return { key: item.key, ts, value: null, status: 3, output: firstLine(`${summary}; no number at ${exec}`) };
  });
}

/** `$.a.b[2].c` or `a.b.2.c` → that value of the JSON document; undefined when absent. */
export function jsonPath(document: unknown, path: string): unknown {
  const parts = path
    .replace(/^\$\.?/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((p) => p !== "");
  let current: unknown = document;
  for (const part of parts) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
