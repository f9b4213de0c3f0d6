import * as z from "zod";

/**
 * Server → agent: the configuration one agent runs, rendered by the worker from a deployment.
 * Agents fetch it by long-polling `GET /api/agent/config?after=<version>` with their token
 * (works behind NAT, and an agent that was offline gets the latest version when it returns),
 * apply it atomically, and report with `POST /api/agent/status`.
 */

export const agentCheckItemSchema = z.object({
  name: z.string().min(1).max(128),
  /** `host-service-item`. */
  key: z.string().min(3).max(400),
  /** shell: a command line or Bischeck's {"check": "...", "label": "..."}; http: a JSON path; postgres: SQL. */
  exec: z.string().min(1).max(8192),
});

export const agentCheckSchema = z.object({
  /** Stable id of the service (host-service). */
  id: z.string().min(3).max(300),
  host: z.string().min(1).max(128),
  service: z.string().min(1).max(128),
  url: z.string().min(1).max(2048),
  /** 30S / 5M / 1H, a Quartz cron expression (read in the config's time zone), or after:host-service. */
  schedules: z.array(z.string().min(1).max(256)).min(1).max(32),
  timeoutMs: z.number().int().min(100).max(300_000),
  items: z.array(agentCheckItemSchema).min(1).max(1000),
});
export type AgentCheck = z.infer<typeof agentCheckSchema>;

export const agentConfigSchema = z.object({
  version: z.number().int().positive(),
  /** sha256 of the canonical JSON of `checks` (and nothing else), so equal configs hash equal. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  agent: z.string().min(1).max(128),
  /** The organisation's time zone (IANA), in which cron schedules are read; absent means UTC. */
  timeZone: z.string().min(1).max(64).optional(),
  checks: z.array(agentCheckSchema).max(100_000),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

export const agentStatusSchema = z.object({
  version: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.enum(["applied", "failed"]),
  error: z.string().max(4000).optional(),
});
export type AgentStatus = z.infer<typeof agentStatusSchema>;
