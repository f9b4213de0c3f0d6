"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { agentCommand } from "~/lib/agent-command";
import { useTRPC } from "~/trpc/react";
import "./deploy.css";
import { ago } from "./time";

/** Collector agents: create one (its token is shown once), revoke, and see what each runs. */
export function AgentsPanel({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [issued, setIssued] = useState<{ name: string; token: string } | null>(null);
  const agents = useQuery({ ...trpc.agents.list.queryOptions(), refetchInterval: 5000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
  const create = useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: (created) => {
        setIssued({ name: created.agent.name, token: created.token });
        setName("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.agents.revoke.mutationOptions({ onSuccess: () => void refresh() }));

  return (
    <div className="stack">
      {issued && (
        <section className="deploy-token" aria-label="New agent token">
          <strong>Token of agent {issued.name}: copy it now, it is not shown again.</strong>
          <code className="mono" data-testid="agent-token">
            {issued.token}
          </code>
          <span className="muted mono">{agentCommand(typeof window === "undefined" ? "" : window.location.origin, issued.token)}</span>
          <div>
            <button type="button" className="deploy-secondary" onClick={() => setIssued(null)}>
              I have copied it
            </button>
          </div>
        </section>
      )}
      <section className="panel" aria-label="Agents">
        <div className="panel-head">
          <h2>Agents</h2>
          {isAdmin && (
            <form
              className="deploy-bar"
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate({ name: name.trim() });
              }}
            >
              <input
                aria-label="New agent name"
                placeholder="agent name, e.g. dc1-collector"
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
              <button type="submit" disabled={create.isPending || name.trim() === ""}>
                Create agent
              </button>
            </form>
          )}
        </div>
        {create.error && <p className="error">{create.error.message}</p>}
        {revoke.error && <p className="error">{revoke.error.message}</p>}
        {agents.data && agents.data.length === 0 && <p className="muted">No agents yet.</p>}
        {agents.data && agents.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Token</th>
                <th>Last seen</th>
                <th>Applied version</th>
                <th className="num">Services</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {agents.data.map((a) => (
                <tr key={a.id} className={a.revokedAt ? "muted" : undefined}>
                  <td>
                    <Link href={`/agents/${a.id}`}>{a.name}</Link>
                  </td>
                  <td className="mono">{a.tokenPrefix}…</td>
                  <td>{ago(a.lastSeenAt)}</td>
                  <td>{a.appliedVersion ?? "—"}</td>
                  <td className="num">{a.services}</td>
                  <td className="deploy-actions">
                    {a.revokedAt ? (
                      <span>revoked {ago(a.revokedAt)}</span>
                    ) : (
                      isAdmin && (
                        <button
                          type="button"
                          className="deploy-secondary danger"
                          disabled={revoke.isPending}
                          onClick={() => {
                            if (
                              window.confirm(
                                `Revoke agent ${a.name}? It will stop receiving configurations and its results will be refused.`,
                              )
                            )
                              revoke.mutate({ id: a.id });
                          }}
                        >
                          Revoke
                        </button>
                      )
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
