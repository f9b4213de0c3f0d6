import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, REPO_ROOT } from "../lib/paths.ts";
import { freePort } from "../lib/ports.ts";

/** `npm start` refuses bad setups with one sentence and a non-zero exit, before touching anything. */
function start(env: NodeJS.ProcessEnv) {
  const result = spawnSync(bin("tsx"), [path.join(REPO_ROOT, "scripts", "start.ts")], {
    env: { ...process.env, TIDEMARK_DATA_DIR: path.join(REPO_ROOT, ".data-never-created"), ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("start-up errors", () => {
  it("a DATABASE_URL nobody listens at", async () => {
    const { status, stderr } = start({ DATABASE_URL: "postgres://u:secret@127.0.0.1:1/db", PORT: String(await freePort()) });
    expect(status).toBe(1);
    expect(stderr).toContain("nothing is listening at postgres://u:***@127.0.0.1:1/db: start the database or fix DATABASE_URL");
    expect(stderr).not.toContain("secret");
  });

  it("a DATABASE_URL that is not a URL", async () => {
    const { status, stderr } = start({ DATABASE_URL: "not-a-url", PORT: String(await freePort()) });
    expect(status).toBe(1);
    expect(stderr).toContain("DATABASE_URL is not a valid URL");
  });

  it("a web port already in use", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "0.0.0.0", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const { status, stderr } = start({ PORT: String(port) });
      expect(status).toBe(1);
      expect(stderr).toContain(`Port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it("a PORT that is not a port", () => {
    const { status, stderr } = start({ PORT: "http" });
    expect(status).toBe(1);
    expect(stderr).toContain("PORT=http is not a port number");
  });
});
