import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/paths.ts";
import { typeScriptEntry } from "../lib/typescript-entry.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "tidemark-entry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a TypeScript entry as the launchers run it (typeScriptEntry)", () => {
  it("is stopped by its own SIGTERM handler even while busy, not killed (npm start's children outlived it)", async () => {
    const stoppedFile = path.join(dir, "stopped");
    const entry = typeScriptEntry(path.join(REPO_ROOT, "scripts", "test", "fixtures", "busy-at-signal.ts"));
    const child = spawn(entry.command, [...entry.args, stoppedFile], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const [ready] = (await once(child.stdout!, "data")) as [Buffer];
    expect(ready.toString()).toBe("ready\n");
    await new Promise((resolve) => setTimeout(resolve, 100)); // inside a busy slice
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(existsSync(stoppedFile) && readFileSync(stoppedFile, "utf8")).toBe("stopped by its own handler\n");
  });
});
