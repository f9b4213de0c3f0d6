"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./alerts.css";
import { AlertPagesTitle } from "./alert-pages-title";
import { DeliveryLog } from "./delivery-log";
import { describeMatchers, describeRepeat, draftOf, EMPTY_RECEIVER, KIND_LABELS, type ReceiverView } from "./receiver-draft";
import { ReceiverForm } from "./receiver-form";

/**
 * Notification receivers (webhook, Slack-compatible, email, Alertmanager): who gets which alerts
 * and how often, and the delivery log. Editors and admins add and change them; viewers see them
 * without URLs or addresses (which often carry credentials).
 */
export function ReceiversPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.session.me.queryOptions());
  const canEdit = me.data?.role === "editor" || me.data?.role === "admin";
  const full = useQuery({ ...trpc.alerts.webhooks.list.queryOptions(), enabled: canEdit });
  const summaries = useQuery({ ...trpc.alerts.webhooks.receivers.queryOptions(), enabled: me.data !== undefined && !canEdit });
  const receivers: (ReceiverView & { id: string })[] | undefined = canEdit
    ? full.data?.map((w) => ({ ...w, kind: w.kind as ReceiverView["kind"], matchers: w.matchers as ReceiverView["matchers"] }))
    : summaries.data;
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alerts.webhooks.pathKey() });
  const create = useMutation(trpc.alerts.webhooks.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.alerts.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.alerts.webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const edited = receivers?.find((r) => r.id === editing);

  return (
    <div className="stack">
      <AlertPagesTitle title="Receivers" current="/alerts/receivers" />
      <section className="panel" aria-label="Receivers">
        <div className="panel-head">
          <h2>Receivers</h2>
        </div>
        <p className="muted">
          An alert that opens, changes severity or closes goes to every enabled receiver whose matchers take it (
          <span className="mono">*</span> matches any run of characters), retried with backoff. A resolution is always sent to a receiver
          told the alert fired, even once it was acknowledged or silenced.
        </p>
        {!canEdit && me.data && (
          <p className="read-only-note" role="note">
            Read only: editors and admins add and change receivers, and only they see where receivers send (URLs and addresses often carry
            credentials).
          </p>
        )}
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                {canEdit && <th>Sends to</th>}
                <th>Gets</th>
                <th>Repeats</th>
                <th>Enabled</th>
                {canEdit && <th />}
              </tr>
            </thead>
            <tbody>
              {receivers?.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>{KIND_LABELS[r.kind]}</td>
                  {canEdit && (
                    <td className="mono receiver-url">
                      {r.url}
                      {r.emailTo ? ` → ${r.emailTo}` : ""}
                    </td>
                  )}
                  <td>{describeMatchers(r.matchers)}</td>
                  <td>{describeRepeat(r.kind, r.repeatIntervalSeconds)}</td>
                  <td>
                    {canEdit ? (
                      <input
                        type="checkbox"
                        aria-label={`${r.name} enabled`}
                        checked={r.enabled}
                        onChange={(e) => update.mutate({ id: r.id, enabled: e.target.checked })}
                      />
                    ) : r.enabled ? (
                      "yes"
                    ) : (
                      "no"
                    )}
                  </td>
                  {canEdit && (
                    <td className="receiver-row-actions">
                      <button type="button" className="link-button" onClick={() => setEditing(r.id)}>
                        Edit<span className="sr-only"> {r.name}</span>
                      </button>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          if (window.confirm(`Delete the receiver ${r.name}? Its delivery log goes with it.`)) remove.mutate({ id: r.id });
                        }}
                      >
                        Delete<span className="sr-only"> {r.name}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {receivers?.length === 0 && (
                <tr>
                  <td colSpan={canEdit ? 7 : 5} className="muted">
                    No receivers: alerts are recorded but nobody is told.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {(update.error ?? remove.error) && (
          <p className="error" role="alert">
            {(update.error ?? remove.error)?.message}
          </p>
        )}
        {canEdit && edited && (
          <ReceiverForm
            key={`edit-${edited.id}`}
            title={`Edit receiver ${edited.name}`}
            submitLabel="Save receiver"
            initial={draftOf(edited)}
            onCancel={() => setEditing(null)}
            onSubmit={async (input) => {
              await update.mutateAsync({ id: edited.id, ...input });
              setEditing(null);
            }}
          />
        )}
        {canEdit && !edited && (
          <ReceiverForm
            key={`new-${formKey}`}
            title="Add a receiver"
            submitLabel="Add receiver"
            initial={EMPTY_RECEIVER}
            onSubmit={async (input) => {
              await create.mutateAsync(input);
              setFormKey((k) => k + 1);
            }}
          />
        )}
      </section>
      <DeliveryLog />
    </div>
  );
}
