import type { Configuration } from "@tidemark/model";
import { z } from "zod";
import type { ServiceAssignment } from "./snapshot.ts";

/**
 * Import-time assignment: rules mapping host names to agents (`web*` → dc1-collector). The first
 * rule whose pattern matches a host gives its agent-run services to that rule's agent;
 * calculations (bischeck://) stay on the server; a host no rule matches gets no agent.
 */
export const hostAgentRuleSchema = z.object({
  /** A host name, `*` matching any run of characters and `?` one character. */
  hostPattern: z.string().trim().min(1).max(256),
  agentId: z.uuid(),
});
export type HostAgentRule = z.infer<typeof hostAgentRuleSchema>;

function globRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replaceAll("*", ".*")
    .replaceAll("?", ".");
  return new RegExp(`^${escaped}$`);
}

/** The agent the first matching rule names for a host, or null. */
export function agentForHost(rules: readonly HostAgentRule[], host: string): string | null {
  return rules.find((r) => globRegExp(r.hostPattern).test(host))?.agentId ?? null;
}

/** Which agent runs each agent-run service of an imported configuration under the rules. */
export function assignByHostRules(configuration: Configuration, rules: readonly HostAgentRule[]): ServiceAssignment[] {
  const out: ServiceAssignment[] = [];
  for (const host of configuration.hosts) {
    const agentId = agentForHost(rules, host.name);
    if (agentId === null) continue;
    for (const service of host.services)
      if (!service.url.startsWith("bischeck://")) out.push({ host: host.name, service: service.name, agentId });
  }
  return out;
}
