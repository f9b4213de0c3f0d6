import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/paths.ts";
import { typeScriptEntry } from "../lib/typescript-entry.ts";

/** A web server that hangs up on every request, as `npm start`'s does on the demo agents' long polls while it stops. */
const server = http.createServer((req) => req.socket.destroy());
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the demo agents' process (scripts/demo-fleet.ts)", () => {
  it("stops at once on SIGTERM while it waits to retry a failed poll (npm start waited 8 s, then killed it)", async () => {
    const entry = typeScriptEntry(path.join(REPO_ROOT, "scripts", "demo-fleet.ts"));
    const child = spawn(entry.command, entry.args, {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        TIDEMARK_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        TIDEMARK_DEMO_AGENTS: JSON.stringify([{ name: "demo-test", token: "tm_agent_test" }]),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.setEncoding("utf8");
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (chunk: string) => {
        output += chunk;
        if (output.includes("retrying in 10 s")) resolve();
      }),
    );
    const exited = once(child, "exit");
    const signalledAt = Date.now();
    child.kill("SIGTERM");
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // Well under the 10 s the retry waits: the wait is what the signal must cut short.
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
  }, 30_000);
});
