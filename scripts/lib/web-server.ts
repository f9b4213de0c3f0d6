import path from "node:path";
import { webServerBundle } from "./build.ts";
import { REPO_ROOT } from "./paths.ts";

/**
 * How every launcher runs the production web server (`npm start`, the benchmarks): apps/web/src/main.ts
 * (Next.js for pages, the API straight from Node's HTTP server) as its one-file bundle with plain
 * node, from the web app's folder (where Next.js finds its build), on `port`, after
 * `ensureWebBuild`. The Docker image runs the same file.
 */
export function webServerCommand(
  port: number,
  env: NodeJS.ProcessEnv,
): { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv } {
  return {
    command: process.execPath,
    args: [webServerBundle()],
    cwd: path.join(REPO_ROOT, "apps", "web"),
    env: { ...env, PORT: String(port), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  };
}
