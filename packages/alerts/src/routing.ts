import { splitSeriesKey } from "@tidemark/expr";
import { type State, stateSchema } from "@tidemark/thresholds";
import { z } from "zod";
import { matchesGlob } from "./silences.ts";

/**
 * Notification policies: which receivers get which alerts, when a notification is held, and when
 * a firing alert is sent again. Pure decisions; `packages/db` loads receivers and writes
 * deliveries, the worker's notifier sends them.
 */

export const RECEIVER_KINDS = ["webhook", "alertmanager", "slack", "email"] as const;
export const receiverKindSchema = z.enum(RECEIVER_KINDS);
export type ReceiverKind = z.infer<typeof receiverKindSchema>;

const glob = z.string().trim().min(1).max(200);
/** Absent fields match everything; `severities` lists the alert severities the receiver wants. */
export const receiverMatchersSchema = z.object({
  severities: z
    .array(stateSchema.exclude(["OK"]))
    .min(1)
    .max(3)
    .optional(),
  host: glob.optional(),
  service: glob.optional(),
  item: glob.optional(),
});
export type ReceiverMatchers = z.infer<typeof receiverMatchersSchema>;

export interface ReceiverPolicy {
  id: string;
  name: string;
  kind: ReceiverKind;
  matchers: ReceiverMatchers;
  /** Seconds between repeats of a firing alert; null: sent once (Alertmanager receivers: resent anyway, see below). */
  repeatIntervalSeconds: number | null;
}

/** A stored receiver as the routing decisions take it; unreadable matchers match nothing rather than everything. */
export function receiverPolicy(row: {
  id: string;
  name: string;
  kind: string;
  matchers: unknown;
  repeatIntervalSeconds: number | null;
}): ReceiverPolicy {
  const matchers = receiverMatchersSchema.safeParse(row.matchers ?? {});
  return {
    id: row.id,
    name: row.name,
    kind: receiverKindSchema.catch("webhook").parse(row.kind),
    matchers: matchers.success ? matchers.data : { severities: [] as never },
    repeatIntervalSeconds: row.repeatIntervalSeconds,
  };
}

/** Whether a receiver wants notifications about the series `key` at `severity`. */
export function receiverWants(receiver: Pick<ReceiverPolicy, "matchers">, key: string, severity: State): boolean {
  const m = receiver.matchers;
  if (m.severities && severity !== "OK" && !m.severities.includes(severity)) return false;
  if (!m.host && !m.service && !m.item) return true;
  const names = splitSeriesKey(key);
  if (!names) return false;
  return (
    (!m.host || matchesGlob(m.host, names.host)) &&
    (!m.service || matchesGlob(m.service, names.service)) &&
    (!m.item || matchesGlob(m.item, names.item))
  );
}

export type NotificationAction = { action: "send" } | { action: "hold"; reason: string } | { action: "skip" };

/**
 * What becomes of a notification the alert machine says is due. Flapping holds everything. A
 * firing notification is held while the alert is acknowledged or silenced. A resolution is news
 * only to receivers told the alert fired — and to them it is always sent: an acknowledgement or a
 * silence says "we know", not "never tell us it is over".
 */
export function notificationAction(input: {
  due: "firing" | "resolved";
  heldForFlapping: boolean;
  acknowledged: boolean;
  silencedBy: string | null;
  firingWasSent: boolean;
}): NotificationAction {
  if (input.heldForFlapping) return { action: "hold", reason: "the series is flapping" };
  if (input.due === "resolved") return input.firingWasSent ? { action: "send" } : { action: "skip" };
  if (input.acknowledged) return { action: "hold", reason: "acknowledged" };
  if (input.silencedBy) return { action: "hold", reason: `silenced by ${input.silencedBy}` };
  return { action: "send" };
}

/**
 * Alertmanager forgets an alert that is not sent again before its endsAt, so Tidemark resends
 * firing alerts to it as Prometheus does (every minute, resend_delay) whatever the receiver's
 * repeat interval says.
 */
export const ALERTMANAGER_RESEND_SECONDS = 60;

/** Seconds between sends of a still-firing alert to this receiver; null: never again. */
export function repeatIntervalSeconds(receiver: Pick<ReceiverPolicy, "kind" | "repeatIntervalSeconds">): number | null {
  if (receiver.kind === "alertmanager")
    return Math.min(receiver.repeatIntervalSeconds ?? ALERTMANAGER_RESEND_SECONDS, ALERTMANAGER_RESEND_SECONDS);
  return receiver.repeatIntervalSeconds;
}

/**
 * Whether a firing alert is sent to the receiver again now. Alertmanager receivers get it while it
 * is open (their own silences and inhibitions decide what people see); other receivers not while
 * it is acknowledged or silenced.
 */
export function repeatDue(input: {
  receiver: Pick<ReceiverPolicy, "kind" | "repeatIntervalSeconds">;
  lastSentAt: Date;
  now: Date;
  acknowledged: boolean;
  silenced: boolean;
}): boolean {
  const interval = repeatIntervalSeconds(input.receiver);
  if (interval === null) return false;
  if (input.receiver.kind !== "alertmanager" && (input.acknowledged || input.silenced)) return false;
  return input.now.getTime() - input.lastSentAt.getTime() >= interval * 1000;
}

/** The policy fields a receiver is created or changed with (the API's input). */
export const receiverFieldsSchema = z.object({
  kind: receiverKindSchema,
  matchers: receiverMatchersSchema,
  /** At least a minute between repeats, at most a week; null: once. */
  repeatIntervalSeconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .nullable(),
  emailTo: z.string().trim().max(1000).nullable(),
  emailFrom: z.string().trim().max(200).nullable(),
});
export type ReceiverFields = z.infer<typeof receiverFieldsSchema>;

const EMAIL = /^[^\s@,]+@[^\s@,]+$/;

/** What is wrong with a receiver's URL and recipients for its kind, or null. */
export function receiverProblem(r: { kind: ReceiverKind; url: string; emailTo: string | null; emailFrom: string | null }): string | null {
  let protocol: string;
  try {
    protocol = new URL(r.url).protocol;
  } catch {
    return "url is not a URL";
  }
  if (r.kind === "email") {
    if (protocol !== "smtp:" && protocol !== "smtps:")
      return "an email receiver's url is its SMTP server: smtp://host:port or smtps://user:password@host";
    const to = (r.emailTo ?? "").split(",").map((a) => a.trim());
    if (!to.every((a) => EMAIL.test(a))) return "emailTo must be one or more addresses, separated by commas";
    if (r.emailFrom && !EMAIL.test(r.emailFrom)) return "emailFrom must be an address";
    return null;
  }
  if (protocol !== "http:" && protocol !== "https:") return `a ${r.kind} receiver's url must be http(s)`;
  return null;
}
