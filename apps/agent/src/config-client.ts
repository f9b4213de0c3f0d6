import { type AgentConfig, type AgentStatus, agentConfigSchema } from "@tidemark/protocol";
import { serverRequest } from "./server-request.ts";

export interface ServerEndpoint {
  baseUrl: string;
  token: string;
}

/** The server holds the request up to ~25 s; allow for that plus the network. */
const LONG_POLL_TIMEOUT_MS = 40_000;
const STATUS_TIMEOUT_MS = 15_000;

export class ConfigRejectedError extends Error {}

/**
 * One long-poll: resolves with a newer configuration, or null when the server had none before
 * its hold time ran out (204). Throws on transport errors and unexpected answers.
 */
export async function pollConfig(server: ServerEndpoint, afterVersion: number, signal: AbortSignal): Promise<AgentConfig | null> {
  const { status, ok, text } = await serverRequest(`${server.baseUrl}/api/agent/config?after=${afterVersion}`, {
    method: "GET",
    token: server.token,
    timeoutMs: LONG_POLL_TIMEOUT_MS,
    signal,
  });
  if (status === 204) return null;
  if (!ok) throw new Error(`config endpoint answered ${status}: ${text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigRejectedError("the configuration is not JSON");
  }
  const parsed = agentConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigRejectedError(
      `the configuration does not match the agent protocol: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")}`,
    );
  }
  return parsed.data;
}

export async function reportStatus(server: ServerEndpoint, status: AgentStatus, signal: AbortSignal): Promise<void> {
  const answer = await serverRequest(`${server.baseUrl}/api/agent/status`, {
    method: "POST",
    token: server.token,
    json: JSON.stringify(status),
    timeoutMs: STATUS_TIMEOUT_MS,
    signal,
  });
  if (!answer.ok) throw new Error(`status endpoint answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}
