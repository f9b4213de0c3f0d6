import type { AlertmanagerWebhook } from "./webhook-payload.ts";

/**
 * What each kind of receiver is sent, rendered from the queued notification (Alertmanager's webhook
 * body, stored with the delivery) at send time.
 */

/** An alert as Alertmanager's `POST /api/v2/alerts` takes it (what Prometheus sends). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
}

/**
 * Prometheus' form: a firing alert ends four resend intervals from now unless sent again (so an
 * Alertmanager that stops hearing from Tidemark resolves it by itself); a resolved one ends when
 * it recovered.
 */
export function postableAlerts(body: AlertmanagerWebhook, now: Date, resendSeconds: number): PostableAlert[] {
  const firingEnd = new Date(now.getTime() + 4 * resendSeconds * 1000).toISOString();
  return body.alerts.map((a) => ({
    labels: a.labels,
    annotations: a.annotations,
    startsAt: a.startsAt,
    endsAt: a.status === "resolved" ? a.endsAt : firingEnd,
    generatorURL: a.generatorURL,
  }));
}

function headline(body: AlertmanagerWebhook): string {
  const a = body.alerts[0];
  if (!a) return `[${body.status.toUpperCase()}] Tidemark`;
  const severity = a.status === "resolved" ? "RESOLVED" : (a.labels.severity ?? "").toUpperCase();
  return `[${severity}] ${a.labels.series ?? ""}`;
}

function details(body: AlertmanagerWebhook): string[] {
  return body.alerts
    .flatMap((a) => [
      a.annotations.summary ?? "",
      a.annotations.description ?? "",
      `value ${a.annotations.value ?? "NA"}, threshold ${a.annotations.threshold ?? "NA"} (warning ${a.annotations.warning ?? "NA"}, critical ${a.annotations.critical ?? "NA"})`,
      `since ${a.startsAt}${a.status === "resolved" ? `, resolved ${a.endsAt}` : ""}`,
      a.annotations.preview ? `preview: ${a.annotations.preview}` : "",
      `alert: ${a.generatorURL}`,
    ])
    .filter(Boolean);
}

/** A Slack-compatible incoming-webhook body (Slack, Mattermost, Rocket.Chat take `text`). */
export function slackMessage(body: AlertmanagerWebhook): { text: string } {
  return { text: [`*${headline(body)}*`, ...details(body)].join("\n") };
}

export function emailMessage(body: AlertmanagerWebhook): { subject: string; text: string } {
  return { subject: headline(body), text: `${details(body).join("\n")}\n` };
}

/** Alertmanager's API path; a receiver URL may be Alertmanager's base URL or already end in it. */
const ALERTMANAGER_ALERTS_PATH = "/api/v2/alerts";

/**
 * The HTTP request a webhook, Alertmanager or Slack-compatible receiver gets for a queued
 * notification. Email goes through SMTP instead (see emailMessage).
 */
export function receiverRequest(
  kind: "webhook" | "alertmanager" | "slack",
  url: string,
  body: AlertmanagerWebhook,
  now: Date,
  resendSeconds: number,
): { url: string; body: unknown } {
  switch (kind) {
    case "webhook":
      return { url, body };
    case "slack":
      return { url, body: slackMessage(body) };
    case "alertmanager": {
      const base = url.replace(/\/+$/, "");
      return {
        url: base.endsWith(ALERTMANAGER_ALERTS_PATH) ? base : `${base}${ALERTMANAGER_ALERTS_PATH}`,
        body: postableAlerts(body, now, resendSeconds),
      };
    }
  }
}
