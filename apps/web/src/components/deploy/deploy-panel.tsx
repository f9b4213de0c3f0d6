"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./deploy.css";
import type { AgentConnection, DeliveryKind } from "@tidemark/config-render";
import { DiffSummary, EvaluationDiff } from "./diff-summary";
import { DeploymentProgress, StatusPill } from "./progress";
import { ago } from "./time";

function connectionText(connection: AgentConnection): string {
  if (connection.kind === "never-connected") return "never connected";
  if (connection.kind === "offline") return `offline since ${ago(connection.since)}`;
  return `online, seen ${ago(connection.lastSeenAt)}`;
}

/** One click: the diff per agent, the Deploy button, live progress, and the history with rollback. */
export function DeployPanel({ canDeploy }: { canDeploy: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [shown, setShown] = useState<number | null>(null);
  const preview = useQuery({ ...trpc.deploy.preview.queryOptions(), refetchInterval: 10_000 });
  const history = useQuery({ ...trpc.deploy.list.queryOptions({ limit: 30 }), refetchInterval: 5000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.deploy.pathKey() });
  const deploy = useMutation(
    trpc.deploy.deploy.mutationOptions({
      onSuccess: (created) => {
        setShown(created.version);
        setMessage("");
        void refresh();
      },
    }),
  );
  const rollback = useMutation(
    trpc.deploy.rollback.mutationOptions({
      onSuccess: (created) => {
        setShown(created.version);
        void refresh();
      },
    }),
  );
  const affected = preview.data?.agents.filter((a) => a.affected).length ?? 0;
  const current = shown ?? history.data?.[0]?.version ?? null;

  return (
    <div className="stack">
      <section className="panel" aria-label="Deploy">
        <div className="panel-head">
          <h2>Deploy configuration</h2>
          <span className="muted">{preview.data ? `${affected} of ${preview.data.agents.length} agents affected` : "comparing…"}</span>
        </div>
        {preview.error && <p className="error">{preview.error.message}</p>}
        {preview.data && (
          <p data-testid="draft-status">
            {preview.data.deployedVersion === null
              ? "Nothing is deployed yet: the worker evaluates no threshold until the first deploy."
              : preview.data.differs
                ? `The draft differs from what is deployed (version ${preview.data.deployedVersion}).`
                : `The draft is what is deployed (version ${preview.data.deployedVersion}).`}
          </p>
        )}
        {preview.data && preview.data.runningNowhere.length > 0 && (
          <p className="deploy-nowhere" data-testid="running-nowhere">
            {preview.data.runningNowhere.length} service{preview.data.runningNowhere.length === 1 ? " runs" : "s run"} nowhere (no agent
            assigned):{" "}
            <span className="mono">
              {preview.data.runningNowhere
                .slice(0, 8)
                .map((s) => `${s.host}-${s.service}`)
                .join(", ")}
              {preview.data.runningNowhere.length > 8 ? "…" : ""}
            </span>{" "}
            — assign them on the Services page.
          </p>
        )}
        {preview.data && preview.data.agents.length === 0 && <p className="muted">No agents yet: create one on the Agents page.</p>}
        {preview.data && preview.data.agents.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Runs version</th>
                <th className="num">Checks after deploy</th>
                <th>Changes against what it runs</th>
              </tr>
            </thead>
            <tbody>
              {preview.data.agents.map((a) => (
                <tr key={a.agentId} data-testid={`preview-${a.name}`}>
                  <td>
                    <span
                      className={`deploy-online${a.connection.kind === "online" ? " is-online" : ""}`}
                      title={connectionText(a.connection)}
                    />
                    {a.name} <span className="muted">({connectionText(a.connection)})</span>
                  </td>
                  <td>{a.appliedVersion ?? <span className="muted">none</span>}</td>
                  <td className="num">{a.checks}</td>
                  <td>
                    <DiffSummary diff={a.diff} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {preview.data && (
          <section aria-label="What the worker evaluates">
            <h3>Thresholds and alert settings (against version {preview.data.deployedVersion ?? "none"})</h3>
            <EvaluationDiff changes={preview.data.evaluation} />
          </section>
        )}
        {canDeploy ? (
          <form
            className="deploy-bar"
            onSubmit={(e) => {
              e.preventDefault();
              deploy.mutate({ message });
            }}
          >
            <input
              aria-label="Deployment message"
              placeholder="What changes (optional)"
              value={message}
              maxLength={500}
              onChange={(e) => setMessage(e.target.value)}
            />
            <button type="submit" disabled={deploy.isPending || !preview.data}>
              {deploy.isPending ? "Deploying…" : "Deploy"}
            </button>
          </form>
        ) : (
          <p className="muted">Deploying needs the editor role.</p>
        )}
        {deploy.error && <p className="error">{deploy.error.message}</p>}
        {rollback.error && <p className="error">{rollback.error.message}</p>}
      </section>

      {current !== null && <DeploymentProgress version={current} />}

      <section className="panel" aria-label="Deployment history">
        <div className="panel-head">
          <h2>History</h2>
        </div>
        {history.data && history.data.length === 0 && <p className="muted">Nothing deployed yet.</p>}
        {history.data && history.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>Version</th>
                <th>When</th>
                <th>Who</th>
                <th>Message</th>
                <th>Agents</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {history.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    <button type="button" className="link-button" onClick={() => setShown(d.version)}>
                      v{d.version}
                    </button>
                  </td>
                  <td className="muted" title={new Date(d.createdAt).toISOString()}>
                    {ago(d.createdAt)}
                  </td>
                  <td>{d.createdBy ?? "—"}</td>
                  <td>
                    {d.rollbackOf !== null && <span className="muted">↩ v{d.rollbackOf} · </span>}
                    {d.message}
                  </td>
                  <td>
                    {d.agents === 0 && <span className="muted">none</span>}
                    {Object.entries(d.counts).map(([kind, n]) => (
                      <span key={kind}>
                        <StatusPill kind={kind as DeliveryKind} /> {n}{" "}
                      </span>
                    ))}
                  </td>
                  <td className="deploy-actions">
                    {canDeploy && d.version !== history.data[0]?.version && (
                      <button
                        type="button"
                        className="deploy-secondary"
                        disabled={rollback.isPending}
                        onClick={() => {
                          if (window.confirm(`Deploy version ${d.version}'s configuration again as a new version?`))
                            rollback.mutate({ version: d.version });
                        }}
                      >
                        Roll back to v{d.version}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
