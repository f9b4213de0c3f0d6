"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { AgentSelect } from "./agent-select";
import { Pager, useKeyset } from "./keyset";

const PAGE = 50;

type Target = { serviceIds: string[] } | { search: string } | { hostId: string };

/** Services of the organisation, or of one host, with the agent each runs on; assign them in bulk. */
export function ServicesList({ hostId }: { hostId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [agentId, setAgentId] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const keyset = useKeyset();
  const services = useQuery({
    ...trpc.config.services.list.queryOptions({ hostId, search: search || undefined, after: keyset.after, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const assign = useMutation(
    trpc.config.services.assign.mutationOptions({
      onSuccess: (r) => {
        setResult(
          `${r.assigned} service${r.assigned === 1 ? "" : "s"} assigned${r.calculations ? `; ${r.calculations} calculation${r.calculations === 1 ? "" : "s"} left to the server` : ""}. Deploy to make it run.`,
        );
        setSelected(new Set());
        void queryClient.invalidateQueries({ queryKey: trpc.config.services.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
      },
    }),
  );
  const rows = services.data?.rows ?? [];
  const run = (target: Target) => {
    setResult(null);
    assign.mutate({ agentId, target });
  };
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <section className="panel" aria-label="Services">
      <div className="panel-head">
        <h2>Services</h2>
        <input
          type="search"
          placeholder="Search host-service or URL…"
          aria-label="Search services"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            keyset.reset();
          }}
        />
      </div>
      <fieldset className="assign-bar" aria-label="Assign to an agent">
        <AgentSelect label="Assign to agent" value={agentId} onChange={setAgentId} />
        <button type="button" disabled={selected.size === 0 || assign.isPending} onClick={() => run({ serviceIds: [...selected] })}>
          Assign selected ({selected.size})
        </button>
        {hostId ? (
          <button type="button" disabled={assign.isPending} onClick={() => run({ hostId })}>
            Assign every service of this host
          </button>
        ) : (
          <button type="button" disabled={assign.isPending} onClick={() => run({ search })}>
            {search ? `Assign every service matching "${search}"` : "Assign every service"}
          </button>
        )}
        {assign.error && <span className="error">{assign.error.message}</span>}
        {result && (
          <span className="muted" role="status">
            {result}
          </span>
        )}
      </fieldset>
      <table className="table">
        <thead>
          <tr>
            <th>
              <input
                type="checkbox"
                aria-label="Select every service on this page"
                checked={rows.length > 0 && rows.every((s) => selected.has(s.id))}
                onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((s) => s.id)) : new Set())}
              />
            </th>
            <th>Service</th>
            <th>Connection URL</th>
            <th>Schedule</th>
            <th>Runs on</th>
            <th className="num">Items</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id} data-testid={`service-${s.host}-${s.name}`}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${s.host}-${s.name}`}
                  checked={selected.has(s.id)}
                  onChange={() => toggle(s.id)}
                />
              </td>
              <td className="mono">
                <Link href={`/config/services/${s.id}`}>
                  {s.host}-{s.name}
                </Link>
              </td>
              <td className="mono muted">{s.url}</td>
              <td className="mono">{s.schedules.join(", ")}</td>
              <td>
                {s.url.startsWith("bischeck://") ? (
                  <span className="muted">server</span>
                ) : s.runsNowhere ? (
                  <span className="runs-nowhere" title="No active agent runs this service">
                    ⚠ runs nowhere
                  </span>
                ) : (
                  s.agent
                )}
              </td>
              <td className="num">{s.items}</td>
            </tr>
          ))}
          {services.data?.rows.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No services.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager keyset={keyset} next={services.data?.next} />
    </section>
  );
}
