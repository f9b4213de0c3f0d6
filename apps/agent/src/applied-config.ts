import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { type AgentConfig, agentConfigSchema } from "@tidemark/protocol";

/**
 * The last applied configuration, kept on disk so that an agent restarting while the server is
 * down goes on running its checks (and spooling) instead of idling until the server returns.
 */
export function loadAppliedConfig(file: string): AgentConfig | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const parsed = agentConfigSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

export function saveAppliedConfig(file: string, config: AgentConfig): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(config), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
