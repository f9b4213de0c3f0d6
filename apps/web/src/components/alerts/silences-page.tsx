"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./alerts.css";
import { useFormatInstant } from "../time/time-zone";
import { AlertPagesTitle } from "./alert-pages-title";

const DURATIONS = [
  ["30 minutes", 30],
  ["1 hour", 60],
  ["4 hours", 240],
  ["1 day", 1440],
  ["1 week", 10080],
] as const;

/** Silences: create one (prefilled when coming from an alert), see them, end them early. */
export function SilencesPage() {
  const formatTime = useFormatInstant();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const fromAlert = params.get("alert");
  const [matchers, setMatchers] = useState({
    host: params.get("host") ?? "*",
    service: params.get("service") ?? "*",
    item: params.get("item") ?? "*",
  });
  const [minutes, setMinutes] = useState(60);
  const [comment, setComment] = useState("");
  const [includeExpired, setIncludeExpired] = useState(false);
  const me = useQuery(trpc.session.me.queryOptions());
  const canEdit = me.data?.role === "editor" || me.data?.role === "admin";
  const list = useQuery(trpc.alerts.silences.list.queryOptions({ includeExpired }, { refetchInterval: 30_000 }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alerts.silences.list.pathKey() });
  const create = useMutation(
    trpc.alerts.silences.create.mutationOptions({
      onSuccess: async () => {
        setComment("");
        await refresh();
      },
    }),
  );
  const expire = useMutation(trpc.alerts.silences.expire.mutationOptions({ onSuccess: refresh }));
  const now = Date.now();

  return (
    <div className="stack">
      <AlertPagesTitle title="Silences" current="/alerts/silences" />
      {canEdit && (
        <section className="panel" aria-label="New silence">
          <div className="panel-head">
            <h2>New silence{fromAlert ? " for the alert's series" : ""}</h2>
          </div>
          <p className="muted">
            Matching alerts still open and close, but send no notifications while the silence lasts. <span className="mono">*</span> matches
            any run of characters.
          </p>
          <form
            className="tl-form-grid"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ matchers, endsAt: new Date(Date.now() + minutes * 60_000), comment });
            }}
          >
            {(["host", "service", "item"] as const).map((field) => (
              <label key={field} className="tl-field">
                <span>{field[0]?.toUpperCase() + field.slice(1)}</span>
                <input
                  aria-label={`Silence ${field}`}
                  value={matchers[field]}
                  required
                  onChange={(e) => setMatchers({ ...matchers, [field]: e.target.value })}
                />
              </label>
            ))}
            <label className="tl-field">
              <span>For</span>
              <select aria-label="Duration" value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
                {DURATIONS.map(([label, m]) => (
                  <option key={m} value={m}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label className="tl-field">
              <span>Why</span>
              <input aria-label="Silence comment" value={comment} required maxLength={1000} onChange={(e) => setComment(e.target.value)} />
            </label>
            <button type="submit" disabled={create.isPending}>
              Create silence
            </button>
          </form>
          {create.error && <p className="error">{create.error.message}</p>}
          {create.isSuccess && <p className="muted">Silence created.</p>}
        </section>
      )}
      <section className="panel" aria-label="Silences">
        <div className="panel-head">
          <h2>{includeExpired ? "All silences" : "Active and upcoming silences"}</h2>
          <label className="muted tl-check">
            <input type="checkbox" checked={includeExpired} onChange={(e) => setIncludeExpired(e.target.checked)} /> show expired
          </label>
        </div>
        <table className="table">
          <thead>
            <tr>
              <th>Host</th>
              <th>Service</th>
              <th>Item</th>
              <th>From</th>
              <th>Until</th>
              <th>Why</th>
              <th>By</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data?.map((s) => {
              const active = s.endsAt.getTime() > now;
              return (
                <tr key={s.id} className={active ? undefined : "tl-expired"}>
                  <td className="mono">{s.matchers.host}</td>
                  <td className="mono">{s.matchers.service}</td>
                  <td className="mono">{s.matchers.item}</td>
                  <td className="mono">{formatTime(s.startsAt)}</td>
                  <td className="mono">{formatTime(s.endsAt)}</td>
                  <td>{s.comment}</td>
                  <td>{s.createdByName ?? "—"}</td>
                  <td>
                    {active && canEdit && (
                      <button
                        type="button"
                        disabled={expire.isPending}
                        onClick={() => expire.mutate({ id: s.id })}
                        aria-label={`Expire silence ${s.comment}`}
                      >
                        Expire
                      </button>
                    )}
                    {!active && <span className="muted">expired</span>}
                  </td>
                </tr>
              );
            })}
            {list.data?.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No silences.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {expire.error && <p className="error">{expire.error.message}</p>}
      </section>
    </div>
  );
}
