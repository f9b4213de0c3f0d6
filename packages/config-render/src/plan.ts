import { type ChecksDiff, diffChecks } from "./diff.ts";
import { checksHash, renderChecks } from "./render.ts";
import type { DeploymentSnapshot } from "./snapshot.ts";

/** An agent long-polls every ~25 s: one not heard from within this window is offline. */
export const ONLINE_WINDOW_MS = 60_000;

export type AgentConnection = { kind: "never-connected" } | { kind: "online"; lastSeenAt: Date } | { kind: "offline"; since: Date };

export function agentConnection(lastSeenAt: Date | null, now: number): AgentConnection {
  if (lastSeenAt === null) return { kind: "never-connected" };
  return now - lastSeenAt.getTime() < ONLINE_WINDOW_MS ? { kind: "online", lastSeenAt } : { kind: "offline", since: lastSeenAt };
}

/** What the planner needs to know of an agent (not revoked). */
export interface AgentState {
  agentId: string;
  name: string;
  lastSeenAt: Date | null;
  appliedVersion: number | null;
  /** The snapshot of the version it applied (null: it applied none). */
  appliedSnapshot: DeploymentSnapshot | null;
  /** Rendered hash of the newest deployment that targeted it. */
  latestTargetHash: string | null;
}

export interface AgentPlan {
  agentId: string;
  name: string;
  connection: AgentConnection;
  appliedVersion: number | null;
  renderedHash: string;
  checks: number;
  /** Against what the agent runs now (its applied version). */
  diff: ChecksDiff;
  /** Whether a deployment of this snapshot must reach the agent (its last deployed rendering differs). */
  affected: boolean;
}

/** Per agent: what the snapshot renders to, and what changes compared with what it runs. */
export function planAgents(snapshot: DeploymentSnapshot, agents: readonly AgentState[], now: number): AgentPlan[] {
  return agents.map((agent) => {
    const checks = renderChecks(snapshot, agent.agentId);
    const renderedHash = checksHash(checks);
    return {
      agentId: agent.agentId,
      name: agent.name,
      connection: agentConnection(agent.lastSeenAt, now),
      appliedVersion: agent.appliedVersion,
      renderedHash,
      checks: checks.length,
      diff: diffChecks(agent.appliedSnapshot ? renderChecks(agent.appliedSnapshot, agent.agentId) : null, checks),
      affected: agent.latestTargetHash !== renderedHash,
    };
  });
}

/** Services an agent should run (not bischeck:// calculations) that no active agent is assigned: they run nowhere. */
export function servicesRunningNowhere(
  snapshot: Pick<DeploymentSnapshot, "configuration" | "assignments">,
  activeAgentIds: ReadonlySet<string>,
): { host: string; service: string }[] {
  const assigned = new Set(snapshot.assignments.filter((a) => activeAgentIds.has(a.agentId)).map((a) => `${a.host}\u0000${a.service}`));
  const out: { host: string; service: string }[] = [];
  for (const host of snapshot.configuration.hosts)
    for (const service of host.services)
      if (!service.url.startsWith("bischeck://") && !assigned.has(`${host.name}\u0000${service.name}`))
        out.push({ host: host.name, service: service.name });
  return out;
}
