import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentCheck } from "@tidemark/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonPath, runHttpCheck } from "../../src/checks/http.ts";
import { shellRunner } from "../../src/checks/shell.ts";
import { ShellWorkerPool } from "../../src/checks/shell-workers.ts";
import { PLUGINS, requireMonitoringPlugins } from "../plugins.ts";

const check = (url: string, items: [string, string][], timeoutMs = 5000): AgentCheck => ({
  id: "h-s",
  host: "h",
  service: "s",
  url,
  schedules: ["1M"],
  timeoutMs,
  items: items.map(([name, exec]) => ({ name, key: `h-s-${name}`, exec })),
});

// These tests are about running commands, so this agent allows any (its own AGENT_ALLOW_ANY_COMMAND=true).
const workers = new ShellWorkerPool();
const runShellCheck = shellRunner(workers, { pluginDirs: [PLUGINS], allowAnyCommand: true });
let server: http.Server;
let port: number;
beforeAll(async () => {
  requireMonitoringPlugins();
  server = http.createServer((req, res) => {
    if (req.url === "/json")
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: { queue: [{ depth: 17 }] } }));
    else res.writeHead(503).end("down");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  workers.close();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("shell checks with Debian's plugins", () => {
  it("runs check_dummy and check_tcp and reads their status and perfdata", async () => {
    const results = await runShellCheck(
      check("shell://localhost", [
        ["warn", `${PLUGINS}/check_dummy 1 "half full"`],
        ["tcp", `{"check":"${PLUGINS}/check_tcp -H 127.0.0.1 -p ${port}","label":"time"}`],
        ["closed", `${PLUGINS}/check_tcp -H 127.0.0.1 -p 1`],
      ]),
      new AbortController().signal,
    );
    expect(results[0]).toMatchObject({ key: "h-s-warn", status: 1, value: null, output: "WARNING: half full" });
    expect(results[1]).toMatchObject({ key: "h-s-tcp", status: 0 });
    expect(results[1]?.value).toBeGreaterThanOrEqual(0);
    expect(results[1]?.value).toBeLessThan(1);
    expect(results[2]).toMatchObject({ status: 2, value: null });
  });

  it("kills a check that runs past its timeout and reports UNKNOWN", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const [result] = await runShellCheck(check("shell://localhost", [["slow", "sleep 5; echo 'OK | x=1'"]], 200), controller.signal);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ status: 3, value: null, output: "timed out after 200 ms" });
    // The worker that ran it was killed and replaced: the next command runs normally.
    const [after] = await runShellCheck(
      check("shell://localhost", [["ok", `${PLUGINS}/check_dummy 0 fine`]]),
      new AbortController().signal,
    );
    expect(after).toMatchObject({ status: 0, output: "OK: fine" });
  });

  it("keeps a plugin's CRITICAL exit and output, and makes unreadable perfdata UNKNOWN with the reason", async () => {
    const [critical, malformed] = await runShellCheck(
      check("shell://localhost", [
        ["c", `${PLUGINS}/check_dummy 2 "disk full"`],
        ["y", `echo 'OK - fine | y=3,5'`],
      ]),
      new AbortController().signal,
    );
    expect(critical).toMatchObject({ status: 2, value: null, output: "CRITICAL: disk full" });
    expect(malformed).toMatchObject({ status: 3, value: null });
    expect(malformed?.output).toMatch(/^perfdata error: y: "3,5" is not a number.*; OK - fine$/);
  });

  it("reuses a few shell workers for many runs, running commands side by side", async () => {
    const runs = Array.from({ length: 40 }, (_, i) =>
      runShellCheck(check("shell://localhost", [["v", `echo 'OK | v=${i}'; exit ${i % 4}`]]), new AbortController().signal),
    );
    const results = (await Promise.all(runs)).flat();
    expect(results.map((r) => [r.value, r.status])).toEqual(Array.from({ length: 40 }, (_, i) => [i, i % 4]));
    expect(workers.size).toBeLessThanOrEqual(40);
    const [quoted] = await runShellCheck(
      check("shell://localhost", [["q", `printf '%s | x=%d\\n' "it's ok" 3`]]),
      new AbortController().signal,
    );
    expect(quoted).toMatchObject({ value: 3, output: "it's ok" });
  });
});

describe("http checks", () => {
  it("measures status, latency and a JSON value", async () => {
    const results = await runHttpCheck(
      check(`http://127.0.0.1:${port}/json`, [
        ["status", "status"],
        ["latency", "latency"],
        ["depth", "$.data.queue[0].depth"],
        ["missing", "data.nothing"],
      ]),
      new AbortController().signal,
    );
    expect(results.map((r) => [r.key, r.status])).toEqual([
      ["h-s-status", 0],
      ["h-s-latency", 0],
      ["h-s-depth", 0],
      ["h-s-missing", 3],
    ]);
    expect(results[0]?.value).toBe(200);
    expect(results[1]?.value).toBeGreaterThan(0);
    expect(results[2]?.value).toBe(17);
  });

  it("reports an error status as CRITICAL and an unreachable server with no value", async () => {
    const [down] = await runHttpCheck(check(`http://127.0.0.1:${port}/other`, [["status", "status"]]), new AbortController().signal);
    expect(down).toMatchObject({ value: 503, status: 2 });
    const [refused] = await runHttpCheck(check("http://127.0.0.1:1/", [["status", "status"]]), new AbortController().signal);
    expect(refused).toMatchObject({ value: null, status: 2 });
    expect(jsonPath({ a: [1, { b: 2 }] }, "a.1.b")).toBe(2);
  });
});
