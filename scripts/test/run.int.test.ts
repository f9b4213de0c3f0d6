import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/paths.ts";
import { run } from "../lib/processes.ts";

describe("run, quiet (apt beside npm start's build)", () => {
  it("shows nothing of a command that succeeds", () => {
    // In a process of its own, to see what it writes.
    const script = `import { run } from ${JSON.stringify(path.join(REPO_ROOT, "scripts", "lib", "processes.ts"))};
await run("sh", ["-c", "echo out; echo err >&2"], { cwd: "/", quiet: true });
process.stdout.write("done\\n");`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 0, stdout: "done\n", stderr: "" });
  });

  it("puts the end of a failing command's output in its error", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `echo line-${i}`).join("; ");
    const failure = run("sh", ["-c", `${lines}; echo 'E: Unable to locate package nope' >&2; exit 100`], { cwd: "/", quiet: true });
    await expect(failure).rejects.toThrow(/exited with 100:\n(line-\d+\n){19}E: Unable to locate package nope$/);
    await expect(failure).rejects.not.toThrow(/line-10\n/);
  });
});
