"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./alerts.css";
import { useFormatInstant } from "../time/time-zone";

/** Webhook receivers (Alertmanager's webhook format) and the delivery log. */
export function WebhooksPage() {
  const formatTime = useFormatInstant();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.session.me.queryOptions());
  const canEdit = me.data?.role === "editor" || me.data?.role === "admin";
  const hooks = useQuery({ ...trpc.alerts.webhooks.list.queryOptions(), enabled: canEdit });
  const deliveries = useQuery(trpc.alerts.webhooks.deliveries.queryOptions({ limit: 100 }, { refetchInterval: 10_000 }));
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alerts.webhooks.pathKey() });
  const create = useMutation(
    trpc.alerts.webhooks.create.mutationOptions({
      onSuccess: async () => {
        setName("");
        setUrl("");
        await refresh();
      },
    }),
  );
  const update = useMutation(trpc.alerts.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.alerts.webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const error = create.error ?? update.error ?? remove.error;

  return (
    <div className="stack">
      <div className="tl-title">
        <h1>Webhooks</h1>
        <nav className="tl-subnav" aria-label="Alert pages">
          <Link href="/alerts">Timeline</Link>
          <Link href="/alerts/silences">Silences</Link>
        </nav>
      </div>
      {canEdit ? (
        <section className="panel" aria-label="Receivers">
          <div className="panel-head">
            <h2>Receivers</h2>
          </div>
          <p className="muted">
            Each alert that opens, changes severity or closes is POSTed to every enabled receiver as Alertmanager's webhook JSON (version
            4), retried with exponential backoff. Silenced, acknowledged and flapping alerts send nothing.
          </p>
          <table className="table">
            <tbody>
              {hooks.data?.map((h) => (
                <tr key={h.id}>
                  <td>{h.name}</td>
                  <td className="mono">{h.url}</td>
                  <td>
                    <label>
                      <input type="checkbox" checked={h.enabled} onChange={(e) => update.mutate({ id: h.id, enabled: e.target.checked })} />{" "}
                      enabled
                    </label>
                  </td>
                  <td>
                    <button type="button" onClick={() => remove.mutate({ id: h.id })}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form
            className="tl-form-grid"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ name, url, enabled: true });
            }}
          >
            <label className="tl-field">
              <span>Name</span>
              <input aria-label="Webhook name" value={name} required onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="tl-field">
              <span>URL</span>
              <input
                aria-label="Webhook URL"
                type="url"
                value={url}
                required
                placeholder="https://…"
                onChange={(e) => setUrl(e.target.value)}
              />
            </label>
            <button type="submit" disabled={create.isPending}>
              Add receiver
            </button>
          </form>
          {error && <p className="error">{error.message}</p>}
        </section>
      ) : (
        <p className="muted">Receivers are managed by editors.</p>
      )}
      <section className="panel" aria-label="Delivery log">
        <div className="panel-head">
          <h2>Delivery log</h2>
        </div>
        <table className="table">
          <thead>
            <tr>
              <th>Queued</th>
              <th>Receiver</th>
              <th>Notification</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data?.map((d) => (
              <tr key={d.id}>
                <td className="mono">
                  <Link href={`/alerts?alert=${d.alertId}`}>{formatTime(d.createdAt)}</Link>
                </td>
                <td>{d.webhookName}</td>
                <td>{d.notification}</td>
                <td>{d.status === "pending" && d.attempts > 0 ? `retrying at ${formatTime(d.nextAttemptAt)}` : d.status}</td>
                <td className="num">{d.attempts}</td>
                <td className="error">{d.lastError ?? ""}</td>
              </tr>
            ))}
            {deliveries.data?.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  Nothing delivered yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
    </div>
  );
}
