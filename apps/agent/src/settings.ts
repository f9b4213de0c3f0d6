import os from "node:os";
import path from "node:path";
import * as z from "zod";

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
}

/** The agent's settings from its environment; throws naming every wrong variable. */
export function readSettings(env: NodeJS.ProcessEnv): AgentSettings {
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
  };
}
