"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { auditActorLabel } from "./audit-actor";
import "./settings.css";
import { when } from "./time";

interface Filters {
  actorUserId: string;
  action: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { actorUserId: "", action: "", targetType: "", targetId: "", from: "", to: "" };
const PAGE = 50;

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());
/** `datetime-local` values are local times without a zone; Date reads them as local, as the user meant. */
const dateOrNull = (value: string) => (value === "" ? null : new Date(value));

function json(value: unknown): string {
  return value === null || value === undefined ? "—" : JSON.stringify(value, null, 2);
}

/** The audit log: who changed what and when, with before/after, filtered and paged. */
export function AuditPanel() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>(EMPTY);
  // Cursors of the pages before the current one, to go back.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [open, setOpen] = useState<string | null>(null);
  const facets = useQuery(trpc.audit.facets.queryOptions());
  const input = {
    actorUserId: orNull(filters.actorUserId),
    action: orNull(filters.action),
    targetType: orNull(filters.targetType),
    targetId: orNull(filters.targetId),
    from: dateOrNull(filters.from),
    to: dateOrNull(filters.to),
    before: cursors.at(-1) ?? null,
    limit: PAGE,
  };
  const entries = useQuery(trpc.audit.list.queryOptions(input));
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setCursors([null]);
  };
  const families = [...new Set((facets.data?.actions ?? []).map((a) => `${a.split(".")[0]}.`))];

  return (
    <section className="panel stack" aria-label="Audit log">
      <div className="panel-head">
        <h2>Audit log</h2>
        <button type="button" className="settings-secondary" onClick={() => set(EMPTY)}>
          Clear filters
        </button>
      </div>
      <div className="audit-filters">
        <label>
          Who
          <select aria-label="Who" value={filters.actorUserId} onChange={(e) => set({ actorUserId: e.target.value })}>
            <option value="">anyone</option>
            {(facets.data?.actors ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.email})
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select aria-label="Action" value={filters.action} onChange={(e) => set({ action: e.target.value })}>
            <option value="">any</option>
            {families.map((f) => (
              <option key={f} value={f}>
                {f}*
              </option>
            ))}
            {(facets.data?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target type
          <select aria-label="Target type" value={filters.targetType} onChange={(e) => set({ targetType: e.target.value })}>
            <option value="">any</option>
            {(facets.data?.targetTypes ?? []).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target id
          <input
            aria-label="Target id"
            value={filters.targetId}
            onChange={(e) => set({ targetId: e.target.value })}
            placeholder="exact id"
          />
        </label>
        <label>
          From
          <input aria-label="From" type="datetime-local" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          To
          <input aria-label="To" type="datetime-local" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
      </div>
      {entries.error && <p className="error">{entries.error.message}</p>}
      {entries.data && entries.data.entries.length === 0 && <p className="muted">No entries match.</p>}
      {entries.data && entries.data.entries.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Target</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.data.entries.flatMap((e) => {
              const row = (
                <tr key={e.id} data-testid="audit-row">
                  <td>{when(e.createdAt)}</td>
                  <td>{auditActorLabel(e)}</td>
                  <td className="mono">{e.action}</td>
                  <td>
                    {e.targetType} {e.targetId && <span className="muted mono">{e.targetId}</span>}
                  </td>
                  <td className="settings-actions">
                    <button type="button" className="settings-secondary" onClick={() => setOpen(open === e.id ? null : e.id)}>
                      {open === e.id ? "Hide" : "Before / after"}
                    </button>
                  </td>
                </tr>
              );
              if (open !== e.id) return [row];
              return [
                row,
                <tr key={`${e.id}-change`}>
                  <td colSpan={5}>
                    <div className="audit-change">
                      <figure>
                        <figcaption className="muted">Before</figcaption>
                        <pre>{json(e.before)}</pre>
                      </figure>
                      <figure>
                        <figcaption className="muted">After</figcaption>
                        <pre>{json(e.after)}</pre>
                      </figure>
                    </div>
                  </td>
                </tr>,
              ];
            })}
          </tbody>
        </table>
      )}
      <div className="pager">
        <button
          type="button"
          className="settings-secondary"
          disabled={cursors.length < 2}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </button>
        <button
          type="button"
          className="settings-secondary"
          disabled={!entries.data?.nextBefore}
          onClick={() => {
            const next = entries.data?.nextBefore;
            if (next) setCursors((c) => [...c, next]);
          }}
        >
          Older
        </button>
      </div>
    </section>
  );
}
