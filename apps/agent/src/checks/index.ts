import type { AgentCheck } from "@tidemark/protocol";
import { runHttpCheck } from "./http.ts";
import { runPostgresCheck } from "./postgres.ts";
import { runShellCheck } from "./shell.ts";
import type { CheckRunner } from "./types.ts";

/** Which runner a check's URL scheme needs; null for schemes the agent does not run. */
export function runnerFor(check: Pick<AgentCheck, "url">): CheckRunner | null {
  const scheme = /^([a-z]+):\/\//.exec(check.url)?.[1];
  if (scheme === "shell") return runShellCheck;
  if (scheme === "http" || scheme === "https") return runHttpCheck;
  if (scheme === "postgres" || scheme === "postgresql") return runPostgresCheck;
  return null;
}
