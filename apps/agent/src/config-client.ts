import { type AgentConfig, type AgentStatus, agentConfigSchema } from "@tidemark/protocol";

export interface ServerEndpoint {
  baseUrl: string;
  token: string;
}

/** The server holds the request up to ~25 s; allow for that plus the network. */
const LONG_POLL_TIMEOUT_MS = 40_000;

export class ConfigRejectedError extends Error {}

/**
 * One long-poll: resolves with a newer configuration, or null when the server had none before
 * its hold time ran out (204). Throws on transport errors and unexpected answers.
 */
export async function pollConfig(server: ServerEndpoint, afterVersion: number, signal: AbortSignal): Promise<AgentConfig | null> {
  const response = await fetch(`${server.baseUrl}/api/agent/config?after=${afterVersion}`, {
    headers: { authorization: `Bearer ${server.token}` },
    signal: AbortSignal.any([signal, AbortSignal.timeout(LONG_POLL_TIMEOUT_MS)]),
  });
  if (response.status === 204) {
    await response.body?.cancel();
    return null;
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`config endpoint answered ${response.status}: ${text.slice(0, 200)}`);
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
  const response = await fetch(`${server.baseUrl}/api/agent/status`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(status),
    signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`status endpoint answered ${response.status}: ${text.slice(0, 200)}`);
}
