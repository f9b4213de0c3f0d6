import { type AgentConnection, agentConnection } from "./plan.ts";

/** The delivery status stored per target; `superseded` when the agent applied a later version instead. */
export type TargetStatus = "pending" | "delivered" | "applied" | "failed" | "superseded";

/** An agent that is online but has not fetched or applied a version within this time has timed out. */
export const DELIVERY_TIMEOUT_MS = 2 * 60_000;

/**
 * What a person reads about one agent and one version. Every row says one thing: waiting on an
 * agent that never connected or is offline (it completes when the agent comes back), delivered,
 * applied, failed with the agent's own error, superseded, or timed out.
 */
export type DeliveryState =
  | { kind: "applied" }
  | { kind: "superseded" }
  | { kind: "failed"; error: string; retryAt: Date | null }
  | { kind: "never-connected" }
  | { kind: "offline"; since: Date }
  | { kind: "timed-out"; stage: "pending" | "delivered"; since: Date }
  | { kind: "pending" }
  | { kind: "delivered"; at: Date };

export type DeliveryKind = DeliveryState["kind"];

export interface TargetFacts {
  status: TargetStatus;
  lastError: string | null;
  /** When the status last changed (delivered at, failed at…). */
  updatedAt: Date;
  nextAttemptAt: Date | null;
  lastSeenAt: Date | null;
  /** When the deployment was made. */
  deployedAt: Date;
}

export function deliveryState(target: TargetFacts, now: number): DeliveryState {
  switch (target.status) {
    case "applied":
      return { kind: "applied" };
    case "superseded":
      return { kind: "superseded" };
    case "failed":
      return { kind: "failed", error: target.lastError ?? "failed without a reason", retryAt: target.nextAttemptAt };
  }
  const connection: AgentConnection = agentConnection(target.lastSeenAt, now);
  if (connection.kind === "never-connected") return { kind: "never-connected" };
  if (connection.kind === "offline") return { kind: "offline", since: connection.since };
  const since = target.status === "pending" ? target.deployedAt : target.updatedAt;
  if (now - since.getTime() > DELIVERY_TIMEOUT_MS) return { kind: "timed-out", stage: target.status, since };
  return target.status === "pending" ? { kind: "pending" } : { kind: "delivered", at: target.updatedAt };
}

/** A version is done for an agent once applied there or superseded by a later one. */
export const isSettled = (state: DeliveryState) => state.kind === "applied" || state.kind === "superseded";

/** Counts per kind, from the very rows shown (so the summary never disagrees with them). */
export function countDeliveries(states: readonly DeliveryState[]): Partial<Record<DeliveryKind, number>> {
  const counts: Partial<Record<DeliveryKind, number>> = {};
  for (const s of states) counts[s.kind] = (counts[s.kind] ?? 0) + 1;
  return counts;
}
