"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { formatAge, formatCount, formatNumber } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import { FirstRun } from "./first-run";
import { SeriesChart } from "./series-chart";
import { Sparkline } from "./sparkline";
import { StateBadge } from "./state-badge";

const PAGE = 25;
const STATES = ["CRITICAL", "WARNING", "UNKNOWN", "OK", "NONE"] as const;
type BoardState = (typeof STATES)[number];
const STATE_LABELS: Record<BoardState, string> = {
  CRITICAL: "Critical",
  WARNING: "Warning",
  UNKNOWN: "Unknown",
  OK: "OK",
  NONE: "Not evaluated",
};

/** `?state=CRITICAL,WARNING&sort=key`: the board's filter in the URL (a shared link shows the same rows). */
function readBoardParams(params: URLSearchParams) {
  const states = (params.get("state") ?? "").split(",").filter((s): s is BoardState => (STATES as readonly string[]).includes(s));
  return { states, sort: params.get("sort") === "key" ? ("key" as const) : ("state" as const) };
}

/** Ticks every 15 s so that the ages of last values keep counting. */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * What on-call looks at first: how many items are in each state, the problems at the top, each
 * with its last value, how old that value is and its last 24 hours; a new organisation gets the
 * three ways in instead of an empty table.
 */
export function Overview() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const params = useSearchParams();
  const selected = params.get("series");
  const { states, sort } = readBoardParams(new URLSearchParams(params.toString()));
  const [search, setSearch] = useState("");
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const now = useNow();
  const overview = useQuery({ ...trpc.dashboard.overview.queryOptions(), refetchInterval: 30_000 });
  const board = useQuery({
    ...trpc.dashboard.board.queryOptions({ search: search || undefined, states, sort, after: cursors.at(-1) ?? null, limit: PAGE }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const o = overview.data;

  function setParam(name: string, value: string | null) {
    const next = new URLSearchParams(globalThis.location.search);
    if (value) next.set(name, value);
    else next.delete(name);
    globalThis.history.replaceState(null, "", `${pathname}?${next}`);
    setCursors([null]);
  }
  const toggleState = (s: BoardState) =>
    setParam("state", (states.includes(s) ? states.filter((x) => x !== s) : [...states, s]).join(",") || null);

  if (o && o.items === 0 && !search) {
    return (
      <div className="stack">
        <Cards o={o} />
        <FirstRun organizationEmpty={o.hosts === 0} />
      </div>
    );
  }

  return (
    <div className="stack">
      <Cards o={o} />

      <section className="state-summary" aria-label="Items by state">
        {STATES.map((s) => (
          <button
            key={s}
            type="button"
            className={`state-count state-count-${s.toLowerCase()}`}
            aria-pressed={states.includes(s)}
            onClick={() => toggleState(s)}
          >
            <span className="state-count-value">{o ? formatCount(o.board[s]) : "…"}</span>
            <span className="state-count-label">{STATE_LABELS[s]}</span>
          </button>
        ))}
      </section>

      {selected && <SeriesChart seriesId={Number(selected)} />}

      <section className="panel" aria-label="Service items">
        <div className="panel-head">
          <h2>Service items{states.length > 0 ? ` · ${states.map((s) => STATE_LABELS[s]).join(", ")}` : ""}</h2>
          <div className="board-controls">
            <label className="board-sort">
              <span>Sort</span>
              <select value={sort} onChange={(e) => setParam("sort", e.target.value === "key" ? "key" : null)}>
                <option value="state">problems first</option>
                <option value="key">by name</option>
              </select>
            </label>
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
        </div>
        <div className="table-scroll">
          <table className="table board">
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Series</th>
                <th scope="col" className="num">
                  Last value
                </th>
                <th scope="col">Age</th>
                <th scope="col">Last 24 h</th>
                <th scope="col">Threshold</th>
                <th scope="col">Schedule</th>
              </tr>
            </thead>
            <tbody>
              {board.data?.rows.map((row) => (
                <tr
                  key={row.id}
                  className={row.seriesId !== null && String(row.seriesId) === selected ? "selected" : undefined}
                  onClick={() => row.seriesId !== null && setParam("series", String(row.seriesId))}
                >
                  <td>{row.state === "NONE" ? <span className="muted">not evaluated</span> : <StateBadge state={row.state} />}</td>
                  <td className="mono">
                    <Link href={`/items/${row.id}`} onClick={(e) => e.stopPropagation()} prefetch={false}>
                      {row.seriesKey}
                    </Link>
                  </td>
                  <td className="num mono">{formatNumber(row.lastValue)}</td>
                  <td className={row.lastTs && now - new Date(row.lastTs).getTime() > 3_600_000 ? "age age-old" : "age"}>
                    {row.lastTs ? (
                      <time dateTime={new Date(row.lastTs).toISOString()} title={new Date(row.lastTs).toISOString()}>
                        {formatAge(row.lastTs, now)}
                      </time>
                    ) : (
                      <span className="muted">no data</span>
                    )}
                  </td>
                  <td>
                    <Sparkline values={row.spark} state={row.state} />
                  </td>
                  <td>{row.hasPolicy ? "24-hour" : <span className="muted">none</span>}</td>
                  <td className="mono">
                    {row.schedules.join(", ")} <span className="muted">{row.url.split("://")[0]}</span>
                  </td>
                </tr>
              ))}
              {board.data && board.data.rows.length === 0 && (
                <tr>
                  <td colSpan={7} className="muted">
                    No service items match.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <div className="pager">
          <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Previous
          </button>
          <span className="muted">Page {cursors.length}</span>
          <button type="button" disabled={!board.data?.next} onClick={() => board.data?.next && setCursors((c) => [...c, board.data.next])}>
            Next →
          </button>
        </div>
      </section>
    </div>
  );
}

interface OverviewData {
  hosts: number;
  services: number;
  items: number;
  agents: number;
  openAlerts: number;
  database: { kind: string; timescaleVersion?: string | null };
}

function Cards({ o }: { o: OverviewData | undefined }) {
  return (
    <section className="cards" aria-label="Overview">
      <Card label="Hosts" value={o && formatCount(o.hosts)} />
      <Card label="Services" value={o && formatCount(o.services)} />
      <Card label="Service items" value={o && formatCount(o.items)} />
      <Card label="Agents" value={o && formatCount(o.agents)} />
      <Card label="Open alerts" value={o && formatCount(o.openAlerts)} href={o?.openAlerts ? "/alerts?status=open" : undefined} />
      <Card
        label="Database"
        value={o ? (o.database.kind === "timescaledb" ? `TimescaleDB ${o.database.timescaleVersion}` : "PostgreSQL") : undefined}
      />
    </section>
  );
}

function Card({ label, value, href }: { label: string; value: string | undefined; href?: string }) {
  const body = (
    <>
      <div className="card-label">{label}</div>
      <div className="card-value">{value ?? "…"}</div>
    </>
  );
  return href ? (
    <Link className="card card-link" href={href} prefetch={false}>
      {body}
    </Link>
  ) : (
    <div className="card">{body}</div>
  );
}
