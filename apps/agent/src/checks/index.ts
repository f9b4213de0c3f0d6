import type { AgentCheck } from "@tidemark/protocol";
import type { CheckIdentity } from "./check-identity.ts";
import type { CommandPolicy } from "./command-policy.ts";
import { runHttpCheck } from "./http.ts";
import { runPostgresCheck } from "./postgres.ts";
import { runScrapeCheck } from "./scrape.ts";
import { shellRunner } from "./shell.ts";
import { ShellWorkerPool } from "./shell-workers.ts";
import type { CheckRunner } from "./types.ts";

export interface CheckRunners {
  /** Which runner a check's URL scheme needs; null for schemes the agent does not run. */
  runnerFor(check: Pick<AgentCheck, "url">): CheckRunner | null;
  /** Ends the shell workers. */
  close(): void;
}

export interface CheckRunnerOptions {
  commands: CommandPolicy;
  /** Who shell checks run as; null: the agent's own user (never root: see check-identity.ts). */
  identity: CheckIdentity | null;
}

export function createCheckRunners(options: CheckRunnerOptions): CheckRunners {
  const workers = new ShellWorkerPool(options.identity);
  const runShellCheck = shellRunner(workers, options.commands);
  return {
    runnerFor(check) {
      const scheme = /^([a-z+]+):\/\//.exec(check.url)?.[1];
      if (scheme === "shell") return runShellCheck;
      if (scheme === "http" || scheme === "https") return runHttpCheck;
      if (scheme === "postgres" || scheme === "postgresql") return runPostgresCheck;
      if (scheme === "scrape+http" || scheme === "scrape+https") return runScrapeCheck;
      return null;
    },
    close: () => workers.close(),
  };
}
