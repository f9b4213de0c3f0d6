"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/trpc/react";
import "./deploy.css";
import { ago } from "./time";

/** One agent: its liveness, the version it applied, and the services it is assigned. */
export function AgentDetail({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const detail = useQuery({ ...trpc.agents.get.queryOptions({ id: agentId }), refetchInterval: 5000 });
  if (detail.error) return <p className="error">{detail.error.message}</p>;
  if (!detail.data) return <p className="muted">Loading…</p>;
  const { agent, services } = detail.data;
  return (
    <div className="stack">
      <header className="detail-head">
        <div>
          <nav className="breadcrumb muted">
            <Link href="/agents">Agents</Link>
          </nav>
          <h1>{agent.name}</h1>
          <p className="muted">
            {agent.revokedAt
              ? `revoked ${ago(agent.revokedAt)}`
              : agent.lastSeenAt
                ? `last seen ${ago(agent.lastSeenAt)}`
                : "never connected"}{" "}
            · applied version {agent.appliedVersion ?? "none"}
          </p>
        </div>
      </header>
      <section className="panel" aria-label="Services it runs">
        <div className="panel-head">
          <h2>Services it runs</h2>
          <span className="muted">{services.length} assigned (they run here once deployed)</span>
        </div>
        {services.length === 0 ? (
          <p className="muted">
            No services. Assign some on the <Link href="/config/services">Services</Link> page.
          </p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Service</th>
                <th>Connection URL</th>
                <th>Schedule</th>
                <th className="num">Items</th>
              </tr>
            </thead>
            <tbody>
              {services.map((s) => (
                <tr key={s.id}>
                  <td className="mono">
                    <Link href={`/config/services/${s.id}`}>
                      {s.host}-{s.service}
                    </Link>
                  </td>
                  <td className="mono muted">{s.url}</td>
                  <td className="mono">{s.schedules.join(", ")}</td>
                  <td className="num">{s.items}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
