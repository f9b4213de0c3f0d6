import { splitSeriesKey } from "@tidemark/expr";
import { formatNumber, type State } from "@tidemark/thresholds";

/** Alertmanager's "zero time", which its webhook sends as endsAt of a firing alert. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

export interface NotifiedAlert {
  id: string;
  /** host-service-item */
  key: string;
  status: "firing" | "resolved";
  severity: State;
  openedAt: Date;
  closedAt: Date | null;
  value: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  explanation: string;
  flapping: boolean;
  /** The item's id, for the annotation linking to its threshold editor and preview. */
  itemId?: string | null;
}

/** The body of Alertmanager's webhook (version 4), so existing receivers accept it as is. */
export interface AlertmanagerWebhook {
  version: "4";
  groupKey: string;
  truncatedAlerts: number;
  status: "firing" | "resolved";
  receiver: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  alerts: {
    status: "firing" | "resolved";
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: string;
    endsAt: string;
    generatorURL: string;
    fingerprint: string;
  }[];
}

/** The labels Alertmanager routes, groups, inhibits and silences on; `organization` when known (its slug). */
export function alertLabels(alert: Pick<NotifiedAlert, "key" | "severity">, organization?: string): Record<string, string> {
  const names = splitSeriesKey(alert.key);
  return {
    alertname: "TidemarkThreshold",
    ...(organization ? { organization } : {}),
    series: alert.key,
    host: names?.host ?? "",
    service: names?.service ?? "",
    item: names?.item ?? "",
    severity: alert.severity.toLowerCase(),
  };
}

/** Alertmanager's fingerprint is a 64-bit hash of the labels; FNV-1a over the sorted pairs. */
export function fingerprint(labels: Record<string, string>): string {
  let hash = 0xcbf29ce484222325n;
  const text = Object.keys(labels)
    .sort()
    .map((k) => `${k}\u0000${labels[k]}\u0000`)
    .join("");
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

const optionalNumber = (n: number | null) => (n === null ? "NA" : formatNumber(n));

export function alertmanagerPayload(input: {
  receiver: string;
  externalUrl: string;
  alert: NotifiedAlert;
  organization?: string;
}): AlertmanagerWebhook {
  const { alert } = input;
  const labels = alertLabels(alert, input.organization);
  const base = input.externalUrl.replace(/\/+$/, "");
  const annotations: Record<string, string> = {
    summary: `${alert.key} is ${alert.status === "resolved" ? "OK again" : alert.severity}`,
    description: alert.explanation,
    value: optionalNumber(alert.value),
    threshold: optionalNumber(alert.threshold),
    warning: optionalNumber(alert.warning),
    critical: optionalNumber(alert.critical),
    flapping: String(alert.flapping),
    ...(alert.itemId ? { preview: `${base}/items/${alert.itemId}` } : {}),
  };
  // Only the identity is grouped on: the severity label changes on escalation.
  const groupLabels = { alertname: labels.alertname as string, series: alert.key };
  return {
    version: "4",
    groupKey: `{}:{alertname="${groupLabels.alertname}", series="${alert.key}"}`,
    truncatedAlerts: 0,
    status: alert.status,
    receiver: input.receiver,
    groupLabels,
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: base,
    alerts: [
      {
        status: alert.status,
        labels,
        annotations,
        startsAt: alert.openedAt.toISOString(),
        endsAt: alert.status === "resolved" && alert.closedAt ? alert.closedAt.toISOString() : ZERO_TIME,
        generatorURL: `${base}/alerts?alert=${alert.id}`,
        fingerprint: fingerprint(groupLabels),
      },
    ],
  };
}
