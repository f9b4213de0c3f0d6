"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/trpc/react";
import { useFormatInstant } from "../time/time-zone";

/** What went out to the receivers, and what they answered (the answers to editors only: the server blanks them for viewers). */
export function DeliveryLog() {
  const trpc = useTRPC();
  const formatTime = useFormatInstant();
  const deliveries = useQuery(trpc.alerts.webhooks.deliveries.queryOptions({ limit: 100 }, { refetchInterval: 10_000 }));
  return (
    <section className="panel" aria-label="Delivery log">
      <div className="panel-head">
        <h2>Delivery log</h2>
      </div>
      <div className="table-scroll">
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
      </div>
    </section>
  );
}
