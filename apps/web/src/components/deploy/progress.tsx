"use client";

import { useQuery } from "@tanstack/react-query";
import type { DeliveryKind, DeliveryState } from "@tidemark/config-render";
import { useTRPC } from "~/trpc/react";
import "./deploy.css";
import { ago } from "./time";

const LABELS: Record<DeliveryKind, string> = {
  applied: "applied",
  superseded: "superseded",
  failed: "failed",
  "never-connected": "never connected",
  offline: "offline",
  "timed-out": "timed out",
  pending: "pending",
  delivered: "delivered",
};

export function StatusPill({ kind }: { kind: DeliveryKind }) {
  return <span className={`deploy-status deploy-status-${kind}`}>{LABELS[kind]}</span>;
}

/** The one sentence a row says about its agent. */
function explain(state: DeliveryState): string {
  switch (state.kind) {
    case "applied":
      return "the agent applied this version";
    case "superseded":
      return "the agent applied a later version instead";
    case "failed":
      return `the agent refused it: ${state.error}${state.retryAt ? ` (offered again ${new Date(state.retryAt).toLocaleTimeString()})` : ""}`;
    case "never-connected":
      return "the agent has never connected; it receives this version when it first does";
    case "offline":
      return `offline since ${new Date(state.since).toLocaleString()} (${ago(state.since)}); it receives this version when it comes back`;
    case "timed-out":
      return state.stage === "pending"
        ? `the agent is online but has not fetched this version since ${ago(state.since)}`
        : `delivered ${ago(state.since)}, and the agent has not reported applying it`;
    case "pending":
      return "waiting for the agent's next poll";
    case "delivered":
      return `delivered ${ago(state.at)}; waiting for the agent to apply it`;
  }
}

/** Per-agent delivery of one version, refreshed every second until every agent settled it. */
export function DeploymentProgress({ version }: { version: number }) {
  const trpc = useTRPC();
  const progress = useQuery({
    ...trpc.deploy.progress.queryOptions({ version }),
    refetchInterval: (query) => (query.state.data?.done ? 10_000 : 1000),
  });
  const data = progress.data;
  const summary = data
    ? Object.entries(data.counts)
        .map(([kind, n]) => `${n} ${LABELS[kind as DeliveryKind]}`)
        .join(", ")
    : "";
  return (
    <section className="panel" aria-label={`Progress of version ${version}`}>
      <div className="panel-head">
        <h2>Version {version}</h2>
        <span className="muted" data-testid="progress-summary">
          {data
            ? data.targets.length === 0
              ? "sent to no agent"
              : `${data.done ? "every agent applied it" : "in progress"}: ${summary}`
            : "loading…"}
        </span>
      </div>
      {progress.error && <p className="error">{progress.error.message}</p>}
      {data && data.targets.length === 0 && (
        <p className="muted">No agent's checks changed in this version (it changes only what the worker evaluates, or nothing).</p>
      )}
      {data && data.targets.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Agent</th>
              <th>Status</th>
              <th className="num">Deliveries</th>
              <th>Updated</th>
              <th>What it means</th>
            </tr>
          </thead>
          <tbody>
            {data.targets.map((t) => (
              <tr key={t.agentId} data-testid={`target-${t.agent}`}>
                <td>{t.agent}</td>
                <td>
                  <StatusPill kind={t.state.kind} />
                </td>
                <td className="num">{t.attempts}</td>
                <td className="muted">{ago(t.updatedAt)}</td>
                <td className={t.state.kind === "failed" ? "mono" : undefined}>{explain(t.state)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
