"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { splitSeriesKey } from "@tidemark/expr";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { StateBadge } from "../state-badge";
import { useFormatInstant } from "../time/time-zone";
import { formatDuration, optionalNumber } from "./format";
import { ItemAlertSettingsForm } from "./item-settings-form";

const EVENT_LABELS: Record<string, string> = {
  opened: "Opened",
  escalated: "Escalated",
  deescalated: "De-escalated",
  closed: "Closed",
  "flapping-started": "Started flapping",
  "flapping-stopped": "Stopped flapping",
  acknowledged: "Acknowledged",
  "notification-held": "Notification held",
};

const HOUR = 3_600_000;

/**
 * The item's threshold preview around the alert: `at` marks the moment it fired, and the
 * preview's absolute range spans the alert with six hours either side.
 */
function previewHref(itemId: string, openedAt: Date, closedAt: Date | null): string {
  const from = new Date(openedAt.getTime() - 6 * HOUR);
  const to = new Date(Math.min(Date.now(), (closedAt ?? new Date()).getTime() + 6 * HOUR));
  const params = new URLSearchParams({ at: openedAt.toISOString(), from: from.toISOString(), to: to.toISOString() });
  return `/items/${itemId}?${params}`;
}

/** One alert: what fired and why, its history, its notifications, and what an editor can do about it. */
export function AlertDetailPanel(props: { alertId: string; canEdit: boolean; onClose: () => void }) {
  const formatTime = useFormatInstant();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.alerts.detail.queryOptions({ id: props.alertId }, { refetchInterval: 15_000 }));
  const [comment, setComment] = useState("");
  const acknowledge = useMutation(
    trpc.alerts.acknowledge.mutationOptions({
      onSuccess: async () => {
        setComment("");
        await queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });
      },
    }),
  );
  const a = detail.data;

  if (detail.isError) {
    return (
      <aside className="panel tl-detail" aria-label="Alert detail">
        <p className="error">{detail.error.message}</p>
      </aside>
    );
  }
  if (!a) {
    return (
      <aside className="panel tl-detail" aria-label="Alert detail">
        <p className="muted">Loading…</p>
      </aside>
    );
  }
  const names = splitSeriesKey(a.key);
  const silenceParams = new URLSearchParams({
    host: names?.host ?? "*",
    service: names?.service ?? "*",
    item: names?.item ?? "*",
    alert: a.id,
  });

  return (
    <aside className="panel tl-detail" aria-label="Alert detail">
      <div className="panel-head">
        <h2 className="mono">{a.key}</h2>
        <button type="button" className="link-button" onClick={props.onClose} aria-label="Close detail">
          ✕
        </button>
      </div>
      <div className="tl-detail-head">
        <StateBadge state={a.severity} />
        {a.peakSeverity !== a.severity && <span className="muted">peak {a.peakSeverity}</span>}
        {a.closedAt ? <span className="tl-tag">closed</span> : <span className="tl-tag tl-tag-open">open</span>}
        {a.flapping && <span className="tl-tag tl-tag-flapping">flapping</span>}
      </div>
      <dl className="tl-facts">
        <dt>Opened</dt>
        <dd>{formatTime(a.openedAt)}</dd>
        <dt>Closed</dt>
        <dd>
          {a.closedAt ? `${formatTime(a.closedAt)} (after ${formatDuration(a.closedAt.getTime() - a.openedAt.getTime())})` : "still open"}
        </dd>
        <dt>Value when it fired</dt>
        <dd className="mono" data-testid="alert-value">
          {optionalNumber(a.value)}
        </dd>
        <dt>Threshold</dt>
        <dd className="mono">{optionalNumber(a.threshold)}</dd>
        <dt>Warning boundary</dt>
        <dd className="mono">{optionalNumber(a.warning)}</dd>
        <dt>Critical boundary</dt>
        <dd className="mono">{optionalNumber(a.critical)}</dd>
        <dt>Explanation</dt>
        <dd className="mono">{a.explanation}</dd>
      </dl>
      <div className="tl-actions">
        {a.itemId ? (
          <Link className="button-link" href={previewHref(a.itemId, a.openedAt, a.closedAt)}>
            Threshold preview at that moment
          </Link>
        ) : (
          <span className="muted">No service item has this series key, so there is no threshold preview.</span>
        )}
        {props.canEdit && (
          <Link className="button-link" href={`/alerts/silences?${silenceParams}`}>
            Silence…
          </Link>
        )}
      </div>

      <section aria-label="Acknowledgement">
        <h3>Acknowledgement</h3>
        {a.acknowledgedAt ? (
          <p data-testid="acknowledgement">
            Acknowledged by <strong>{a.acknowledgedByName ?? "a removed user"}</strong> at {formatTime(a.acknowledgedAt)}: “{a.ackComment}”
          </p>
        ) : props.canEdit ? (
          <form
            className="tl-inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              acknowledge.mutate({ id: a.id, comment });
            }}
          >
            <input
              aria-label="Acknowledgement comment"
              placeholder="What are you doing about it?"
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              required
              maxLength={1000}
            />
            <button type="submit" disabled={acknowledge.isPending || comment.trim() === ""}>
              Acknowledge
            </button>
          </form>
        ) : (
          <p className="muted">Not acknowledged. Editors can acknowledge it.</p>
        )}
        {acknowledge.error && <p className="error">{acknowledge.error.message}</p>}
      </section>

      <section aria-label="History">
        <h3>History</h3>
        <ol className="tl-history">
          {a.events.map((e) => (
            <li key={e.id}>
              <span className="mono muted">{formatTime(e.ts)}</span> <strong>{EVENT_LABELS[e.kind] ?? e.kind}</strong>{" "}
              {e.kind !== "acknowledged" && e.kind !== "notification-held" && <StateBadge state={e.severity} />}{" "}
              <span className={e.kind === "acknowledged" ? undefined : "mono"}>{e.detail}</span>
              {e.actorName && <span className="muted"> — {e.actorName}</span>}
            </li>
          ))}
        </ol>
        {a.stateChanges.length > 0 && (
          <details>
            <summary>State changes while open ({a.stateChanges.length})</summary>
            <ol className="tl-history">
              {a.stateChanges.map((c) => (
                <li key={c.ts.getTime()}>
                  <span className="mono muted">{formatTime(c.ts)}</span> <StateBadge state={c.state} /> {c.hard ? "hard" : "soft"}{" "}
                  <span className="mono">{c.explanation}</span>
                </li>
              ))}
            </ol>
          </details>
        )}
      </section>

      <section aria-label="Notifications">
        <h3>Notifications</h3>
        {a.deliveries.length === 0 ? (
          <p className="muted">No webhook deliveries for this alert.</p>
        ) : (
          <ul className="tl-history">
            {a.deliveries.map((d) => (
              <li key={d.id}>
                <strong>{d.notification}</strong> to {d.webhookName}: {d.status}, {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                {d.lastError && <span className="error"> ({d.lastError})</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      {a.itemId && a.settings && <ItemAlertSettingsForm itemId={a.itemId} settings={a.settings} canEdit={props.canEdit} />}
    </aside>
  );
}
