/**
 * The demo agents' process (started by `npm start`; lib/demo-fleet.ts provisions them): each demo agent long-polls its configuration
 * like a real agent, reports it applied, and every interval ships values for its checks through
 * POST /api/ingest — the demo's synthetic shapes continued live, so values move. One series runs
 * a short incident every 20 minutes, so an alert fires and resolves while you watch. A handful of
 * requests a minute: no plugin runs, nothing heavy.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { demoSeriesShapes, prng, type SeriesShape, valueAt } from "@tidemark/db/seed";
import { intervalMs } from "@tidemark/model";
import type { AgentCheck, AgentConfig } from "@tidemark/protocol";
import { pollConfig, reportStatus, type ServerEndpoint } from "../apps/agent/src/config-client.ts";
import { serverRequest } from "../apps/agent/src/server-request.ts";

const MINUTE = 60_000;
/** The live incident: this series is three times its usual self for 7 minutes of every 20. */
const INCIDENT_KEY = "web03-http-latency";
const INCIDENT_EVERY_MS = 20 * MINUTE;
const INCIDENT_MS = 7 * MINUTE;
/** Values for checks scheduled more often than this are sent this often (the demo stays light). */
const MIN_STEP_MS = 30_000;

const shapes = demoSeriesShapes();
const random = prng(Date.now() % 2_147_483_647);

function demoValue(key: string, shape: SeriesShape, ts: number): number {
  const value = valueAt(shape, ts, random);
  return key === INCIDENT_KEY && ts % INCIDENT_EVERY_MS < INCIDENT_MS ? Math.round(value * 3.2 * 100) / 100 : value;
}

function stepOf(check: AgentCheck): number {
  const intervals = check.schedules.map(intervalMs).filter((ms) => ms !== null);
  return Math.max(MIN_STEP_MS, intervals.length ? Math.min(...intervals) : MINUTE);
}

async function runAgent(server: ServerEndpoint, name: string, signal: AbortSignal): Promise<void> {
  let config: AgentConfig | null = null;
  const due = new Map<string, number>();
  const log = (message: string) => process.stdout.write(`${JSON.stringify({ agent: name, msg: message })}\n`);

  const ship = async () => {
    if (!config) return;
    const now = Date.now();
    const results = [];
    for (const check of config.checks) {
      if ((due.get(check.id) ?? 0) > now) continue;
      due.set(check.id, now + stepOf(check));
      for (const item of check.items) {
        const shape = shapes.get(item.key);
        if (shape) results.push({ key: item.key, ts: now, value: demoValue(item.key, shape, now) });
      }
    }
    if (results.length === 0) return;
    const answer = await serverRequest(`${server.baseUrl}/api/ingest`, {
      method: "POST",
      token: server.token,
      json: JSON.stringify({ batchId: `${name}-${now}`, configVersion: config.version, results }),
      timeoutMs: 15_000,
      signal,
    });
    if (!answer.ok) log(`ingest answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  };

  const timer = setInterval(() => void ship().catch((error: unknown) => log(`ingest failed: ${String(error)}`)), 5000);
  signal.addEventListener("abort", () => clearInterval(timer));
  while (!signal.aborted) {
    try {
      const next = await pollConfig(server, config?.version ?? 0, signal);
      if (!next) continue;
      config = next;
      await reportStatus(server, { version: next.version, status: "applied", hash: next.hash }, signal);
      log(`applied version ${next.version} (${next.checks.length} checks)`);
    } catch (error) {
      if (signal.aborted) break;
      log(`config poll failed: ${String(error)}; retrying in 10 s`);
      // Abortable: on a stop, the web server closes this poll before this process sees its own
      // signal, and a plain 10-s wait outlived npm start's 8-s grace (SIGKILL; issue 22).
      await sleep(10_000, undefined, { signal }).catch(() => undefined);
    }
  }
}

function main() {
  const baseUrl = process.env.TIDEMARK_URL;
  const agents = JSON.parse(process.env.TIDEMARK_DEMO_AGENTS ?? "[]") as { name: string; token: string }[];
  if (!baseUrl || agents.length === 0) {
    process.stderr.write("demo fleet: TIDEMARK_URL and TIDEMARK_DEMO_AGENTS are required\n");
    process.exit(2);
  }
  const controller = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
  void Promise.all(agents.map((a) => runAgent({ baseUrl, token: a.token }, a.name, controller.signal))).then(() => process.exit(0));
}

main();
