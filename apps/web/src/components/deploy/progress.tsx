"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";
import "./deploy.css";
import { ago } from "./time";

export function StatusPill({ status }: { status: string }) {
  return <span className={`deploy-status deploy-status-${status}`}>{status}</span>;
}

/** Per-agent delivery of one version, refreshed every second until every agent applied it. */
export function DeploymentProgress({ version }: { version: number }) {
  const trpc = useTRPC();
  const progress = useQuery({
    ...trpc.deploy.progress.queryOptions({ version }),
    refetchInterval: (query) => (query.state.data?.done ? false : 1000),
  });
  const data = progress.data;
  return (
    <section className="panel" aria-label={`Progress of version ${version}`}>
      <div className="panel-head">
        <h2>Version {version}</h2>
        <span className="muted">{data ? (data.done ? "every agent applied it" : "delivering…") : "loading…"}</span>
      </div>
      {progress.error && <p className="error">{progress.error.message}</p>}
      {data && data.targets.length === 0 && <p className="muted">No agent was affected: every agent already runs this configuration.</p>}
      {data && data.targets.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Agent</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Updated</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {data.targets.map((t) => (
              <tr key={t.agentId} data-testid={`target-${t.agent}`}>
                <td>{t.agent}</td>
                <td>
                  <StatusPill status={t.status} />
                </td>
                <td className="num">{t.attempts}</td>
                <td className="muted">{ago(t.updatedAt)}</td>
                <td className="mono">{t.lastError ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
