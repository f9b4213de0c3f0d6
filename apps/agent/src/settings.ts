import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { type CheckIdentity, checkIdentity, lookupUser, type UserLookup } from "./checks/check-identity.ts";
import { type CommandPolicy, DEFAULT_PLUGIN_DIRS } from "./checks/command-policy.ts";

const settingsSchema = z.object({
  TIDEMARK_URL: z.url({ message: "TIDEMARK_URL must be the server's base URL, e.g. http://127.0.0.1:3000" }),
  TIDEMARK_AGENT_TOKEN: z
    .string()
    .startsWith("tm_agent_", "TIDEMARK_AGENT_TOKEN must be an agent token (tm_agent_…), shown once when the agent was created"),
  /** Spool and last applied configuration. */
  TIDEMARK_AGENT_STATE_DIR: z.string().min(1).optional(),
  /** /health and /metrics; 0 picks a free port (logged at start). */
  AGENT_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  AGENT_HOST: z.string().min(1).default("127.0.0.1"),
  AGENT_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(16),
  AGENT_SPOOL_MAX_MB: z.coerce.number().positive().max(100_000).default(256),
  AGENT_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).default(500),
  AGENT_FLUSH_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  /** Where the plugins a shell check may run live (colon-separated absolute paths). */
  AGENT_PLUGIN_DIRS: z
    .string()
    .default(DEFAULT_PLUGIN_DIRS.join(":"))
    .transform((s) => s.split(":").filter(Boolean))
    .refine((dirs) => dirs.every((d) => path.isAbsolute(d)), "AGENT_PLUGIN_DIRS must list absolute directories, separated by ':'"),
  /** This agent's own choice (never the server's): run any shell command line a check names. */
  AGENT_ALLOW_ANY_COMMAND: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** When the agent runs as root, its checks run as this user (default nobody). */
  AGENT_RUN_CHECKS_AS: z.string().optional(),
});

export interface AgentSettings {
  serverUrl: string;
  token: string;
  stateDir: string;
  host: string;
  port: number;
  concurrency: number;
  spoolMaxBytes: number;
  batchSize: number;
  flushIntervalMs: number;
  /** Which shell commands may run (see checks/command-policy.ts). */
  commands: CommandPolicy;
  /** Who checks run as when the agent is root; null otherwise. */
  checkIdentity: CheckIdentity | null;
}

/**
 * The agent's settings from its environment; throws naming every wrong variable, or when it runs
 * as root with no unprivileged user to run checks as.
 */
export function readSettings(
  env: NodeJS.ProcessEnv,
  host: { uid: number; lookup: UserLookup } = { uid: process.getuid?.() ?? -1, lookup: lookupUser },
): AgentSettings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const s = parsed.data;
  return {
    serverUrl: s.TIDEMARK_URL,
    token: s.TIDEMARK_AGENT_TOKEN,
    stateDir: path.resolve(s.TIDEMARK_AGENT_STATE_DIR ?? path.join(os.homedir(), ".tidemark-agent")),
    host: s.AGENT_HOST,
    port: s.AGENT_PORT,
    concurrency: s.AGENT_CONCURRENCY,
    spoolMaxBytes: Math.round(s.AGENT_SPOOL_MAX_MB * 1024 * 1024),
    batchSize: s.AGENT_BATCH_SIZE,
    flushIntervalMs: s.AGENT_FLUSH_MS,
    commands: { pluginDirs: s.AGENT_PLUGIN_DIRS, allowAnyCommand: s.AGENT_ALLOW_ANY_COMMAND },
    checkIdentity: checkIdentity(host.uid, s.AGENT_RUN_CHECKS_AS, host.lookup),
  };
}
