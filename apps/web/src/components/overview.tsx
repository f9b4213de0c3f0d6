"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { SeriesChart } from "./series-chart";
import { StateBadge } from "./state-badge";

const PAGE = 25;

export function Overview() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const selected = params.get("series");
  const [search, setSearch] = useState("");
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const overview = useQuery(trpc.dashboard.overview.queryOptions());
  const items = useQuery({
    ...trpc.dashboard.items.queryOptions({ search: search || undefined, after: cursors.at(-1) ?? null, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const o = overview.data;

  return (
    <div className="stack">
      <section className="cards" aria-label="Overview">
        <Card label="Hosts" value={o?.hosts} />
        <Card label="Services" value={o?.services} />
        <Card label="Service items" value={o?.items} />
        <Card label="Agents" value={o?.agents} />
        <Card label="Open alerts" value={o?.openAlerts} />
        <Card
          label="Database"
          value={o ? (o.database.kind === "timescaledb" ? `TimescaleDB ${o.database.timescaleVersion}` : "PostgreSQL") : undefined}
        />
      </section>

      {selected && <SeriesChart seriesId={Number(selected)} />}

      <section className="panel">
        <div className="panel-head">
          <h2>Service items</h2>
          <input
            type="search"
            placeholder="Search host-service-item…"
            aria-label="Search service items"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setCursors([null]);
            }}
          />
        </div>
        <table className="table">
          <thead>
            <tr>
              <th>Series</th>
              <th>Runs on</th>
              <th>Schedule</th>
              <th>Threshold</th>
              <th>State</th>
              <th className="num">Last value</th>
            </tr>
          </thead>
          <tbody>
            {items.data?.rows.map((row) => (
              <tr
                key={row.id}
                className={row.seriesId !== null && String(row.seriesId) === selected ? "selected" : undefined}
                onClick={() => row.seriesId !== null && router.replace(`/?series=${row.seriesId}`, { scroll: false })}
              >
                <td className="mono">
                  <a href={`/items/${row.id}`} onClick={(e) => e.stopPropagation()}>
                    {row.seriesKey}
                  </a>
                </td>
                <td className="muted">{row.url.split("://")[0]}</td>
                <td className="mono">{row.schedules.join(", ")}</td>
                <td>{row.hasPolicy ? "24-hour" : <span className="muted">none</span>}</td>
                <td>{row.state ? <StateBadge state={row.state} /> : <span className="muted">not evaluated</span>}</td>
                <td className="num mono">{row.lastValue ?? "—"}</td>
              </tr>
            ))}
            {items.data && items.data.rows.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  No service items match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <div className="pager">
          <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Previous
          </button>
          <span className="muted">Page {cursors.length}</span>
          <button type="button" disabled={!items.data?.next} onClick={() => items.data?.next && setCursors((c) => [...c, items.data.next])}>
            Next →
          </button>
        </div>
      </section>
    </div>
  );
}

function Card({ label, value }: { label: string; value: string | number | undefined }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value">{value ?? "…"}</div>
    </div>
  );
}
