import path from "node:path";
import { bin, REPO_ROOT } from "./paths.ts";

/**
 * How every launcher runs the production web server (`npm start`, the benchmarks): apps/web/src/main.ts
 * (Next.js for pages, the API straight from Node's HTTP server) from the web app's folder, on `port`,
 * after `ensureWebBuild`. The Docker image runs the same file.
 */
export function webServerCommand(
  port: number,
  env: NodeJS.ProcessEnv,
): { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv } {
  const web = path.join(REPO_ROOT, "apps", "web");
  return {
    command: bin("tsx"),
    args: [path.join(web, "src", "main.ts")],
    cwd: web,
    env: { ...env, PORT: String(port), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  };
}
