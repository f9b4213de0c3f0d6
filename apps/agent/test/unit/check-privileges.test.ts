import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentCheck } from "@tidemark/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIdentity, type UserLookup } from "../../src/checks/check-identity.ts";
import { type CommandPolicy, commandWords, type FileSystemView, resolveCommand, shellQuote } from "../../src/checks/command-policy.ts";
import { shellRunner } from "../../src/checks/shell.ts";
import { ShellWorkerPool } from "../../src/checks/shell-workers.ts";
import { localAgentEnvironment } from "../../src/local-agent-env.ts";
import { readSettings } from "../../src/settings.ts";
import { PLUGINS, requireMonitoringPlugins } from "../plugins.ts";

/** A check's command comes from the server; what may run, and as whom, is the agent's own choice. */

const check = (exec: string): AgentCheck => ({
  id: "h-s",
  host: "h",
  service: "s",
  url: "shell://localhost",
  schedules: ["1M"],
  timeoutMs: 5000,
  items: [{ name: "i", key: "h-s-i", exec }],
});
const DEFAULT_POLICY: CommandPolicy = { pluginDirs: [PLUGINS], allowAnyCommand: false };
const runAs = (uid: number) => checkIdentity(uid, undefined);

let scratch: string;
beforeAll(() => {
  requireMonitoringPlugins();
  scratch = mkdtempSync(path.join(os.tmpdir(), "agent-privileges-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function runOnce(exec: string, policy: CommandPolicy, identity = runAs(process.getuid?.() ?? -1)) {
  const workers = new ShellWorkerPool(identity);
  try {
    const [result] = await shellRunner(workers, policy)(check(exec), new AbortController().signal);
    if (!result) throw new Error("no result");
    return result;
  } finally {
    workers.close();
  }
}

describe("by default the agent runs only plugins from its plugin directories", () => {
  it.each([
    ["a redirection", (file: string) => `id > ${file}`, /shell syntax \(">"\)/],
    ["a command list", (file: string) => `${PLUGINS}/check_dummy 0; touch ${file}`, /shell syntax \(";"\)/],
    ["a command substitution", (file: string) => `${PLUGINS}/check_dummy 0 "$(touch ${file})"`, /expansion/],
    ["a program outside the plugin directories", (file: string) => `/usr/bin/touch ${file}`, /not an executable inside a plugin directory/],
    ["a path escaping the plugin directory", (file: string) => `${PLUGINS}/../../../bin/touch ${file}`, /not an executable inside/],
    ["a bare name that is no plugin", (file: string) => `touch ${file}`, /no plugin named touch/],
  ])("refuses %s: UNKNOWN with the reason, and nothing runs", async (_, command, reason) => {
    const file = path.join(scratch, `ran-${Math.random().toString(36).slice(2)}`);
    const result = await runOnce(command(file), DEFAULT_POLICY);
    expect(result).toMatchObject({ status: 3, value: null });
    expect(result.output).toMatch(/^refused by this agent: /);
    expect(result.output).toMatch(reason);
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    [`${PLUGINS}/check_dummy 1 "disk | used=42"`, 1, 42],
    [`check_dummy 2 'it''s | used=7'`, 2, 7],
    [`$USER1$/check_dummy 0 "ok | used=3"`, 0, 3],
    [`{"check": "check_dummy 0 'fine | used=5'", "label": "used"}`, 0, 5],
  ])("runs the plugin %s with its arguments exactly as written", async (exec, status, value) => {
    expect(await runOnce(exec, DEFAULT_POLICY)).toMatchObject({ status, value });
  });

  it("runs any command line where the agent's own configuration allows it", async () => {
    const result = await runOnce(`echo 'OK | x=1' | cat`, { pluginDirs: [PLUGINS], allowAnyCommand: true });
    expect(result).toMatchObject({ status: 0, value: 1 });
  });
});

describe("checks never run as root and see none of the agent's secrets", () => {
  it.runIf(process.getuid?.() === 0)("an agent started as root runs its checks as nobody", async () => {
    const result = await runOnce(`echo "OK | uid=$(id -u)"`, { pluginDirs: [], allowAnyCommand: true });
    expect(result.value).toBe(65_534);
  });

  it("a check's environment holds nothing of the agent's", async () => {
    process.env.TIDEMARK_AGENT_TOKEN = "tm_agent_secret";
    process.env.DATABASE_URL = "postgres://u:secret@db/x";
    try {
      const result = await runOnce(`env | grep -c -e SECRET -e secret -e DATABASE_URL -e TIDEMARK; true`, {
        pluginDirs: [],
        allowAnyCommand: true,
      });
      expect(result.output).toBe("0");
    } finally {
      delete process.env.TIDEMARK_AGENT_TOKEN;
      delete process.env.DATABASE_URL;
    }
  });

  it.each([
    [1000, undefined, { user: "x", uid: 1, gid: 1 }, null],
    [0, undefined, { user: "nobody", uid: 65_534, gid: 65_534 }, { user: "nobody", uid: 65_534, gid: 65_534 }],
    [0, "checks", { user: "checks", uid: 999, gid: 998 }, { user: "checks", uid: 999, gid: 998 }],
  ])("agent uid %s, AGENT_RUN_CHECKS_AS=%s → %j", (uid, configured, existing, expected) => {
    const lookup = (user: string) => (user === existing.user ? { uid: existing.uid, gid: existing.gid } : null);
    expect(checkIdentity(uid, configured, lookup)).toEqual(expected);
  });

  it.each<[string | undefined, UserLookup, RegExp]>([
    [undefined, () => null, /runs as root and will not run checks as root: user "nobody" does not exist/],
    ["root", () => ({ uid: 0, gid: 0 }), /is root/],
  ])("an agent started as root refuses to start when checks would run as root (%s)", (configured, lookup, message) => {
    expect(() => checkIdentity(0, configured, lookup)).toThrow(message);
    expect(() =>
      readSettings(
        { TIDEMARK_URL: "http://127.0.0.1:3000", TIDEMARK_AGENT_TOKEN: "tm_agent_x", AGENT_RUN_CHECKS_AS: configured },
        { uid: 0, lookup },
      ),
    ).toThrow(message);
  });
});

describe("command words and quoting", () => {
  it.each([
    ["check_x -H a -w 10", ["check_x", "-H", "a", "-w", "10"]],
    [`check_x "a b" 'c|d' e"f g"h`, ["check_x", "a b", "c|d", "ef gh"]],
    [`check_x ''`, ["check_x", ""]],
  ])("%s", (line, words) => {
    expect(commandWords(line)).toEqual({ words });
  });

  it.each(["a | b", "a && b", "a `b`", "a $HOME", "a *", "a 'b", "   ", "a\nb"])("refuses %j", (line) => {
    expect(commandWords(line)).toHaveProperty("error");
  });

  it("quotes words so that the shell passes them through unchanged", () => {
    expect(["a", "b c", "it's", "$x", ""].map(shellQuote)).toEqual(["a", "'b c'", `'it'\\''s'`, "'$x'", "''"]);
  });

  it("compares real paths: a symlink in the plugin directory pointing out of it is refused", () => {
    const files: FileSystemView = {
      realpath: (file) => ({ "/plugins": "/plugins", "/plugins/check_ok": "/plugins/check_ok", "/plugins/evil": "/bin/sh" })[file] ?? null,
      isExecutableFile: () => true,
    };
    const policy = { pluginDirs: ["/plugins"], allowAnyCommand: false };
    expect(resolveCommand("check_ok -v", policy, files)).toEqual({ ok: true, commandLine: "/plugins/check_ok -v" });
    expect(resolveCommand("evil -c id", policy, files)).toMatchObject({ ok: false, reason: expect.stringMatching(/no plugin named evil/) });
  });
});

describe("npm start's local agent", () => {
  it("inherits none of the server's secrets", () => {
    const env = localAgentEnvironment({ PATH: "/bin", DATABASE_URL: "postgres://u:p@h/d" }, { TIDEMARK_AGENT_TOKEN: "tm_agent_x" });
    expect(env).toEqual({ PATH: "/bin", TIDEMARK_AGENT_TOKEN: "tm_agent_x" });
  });
});
