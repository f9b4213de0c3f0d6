import { type ReceiverKind, type ReceiverMatchers, receiverMatchersSchema, receiverProblem } from "@tidemark/alerts";

/**
 * A receiver as its form holds it, and the API input made from it with the same rules the server
 * applies (@tidemark/alerts), each failure said at its field.
 */

export const SEVERITIES = ["CRITICAL", "WARNING", "UNKNOWN"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const KIND_LABELS: Record<ReceiverKind, string> = {
  webhook: "Webhook (Alertmanager's JSON)",
  slack: "Slack-compatible incoming webhook",
  email: "Email through SMTP",
  alertmanager: "Alertmanager",
};

export const URL_HINTS: Record<ReceiverKind, string> = {
  webhook: "https://hooks.example.com/tidemark",
  slack: "https://hooks.slack.com/services/…",
  email: "smtp://mail.example.com:587 or smtps://user:password@mail.example.com",
  alertmanager: "http://alertmanager.example.com:9093 (its base URL)",
};

export interface ReceiverDraft {
  name: string;
  kind: ReceiverKind;
  url: string;
  emailTo: string;
  emailFrom: string;
  /** None ticked: every severity. */
  severities: Severity[];
  host: string;
  service: string;
  item: string;
  /** Minutes between repeats of a firing alert; empty: sent once. */
  repeatMinutes: string;
  enabled: boolean;
}

export const EMPTY_RECEIVER: ReceiverDraft = {
  name: "",
  kind: "webhook",
  url: "",
  emailTo: "",
  emailFrom: "",
  severities: [],
  host: "",
  service: "",
  item: "",
  repeatMinutes: "",
  enabled: true,
};

export interface ReceiverView {
  name: string;
  kind: ReceiverKind;
  url?: string;
  emailTo?: string | null;
  emailFrom?: string | null;
  matchers: ReceiverMatchers;
  repeatIntervalSeconds: number | null;
  enabled: boolean;
}

export function draftOf(r: ReceiverView): ReceiverDraft {
  return {
    name: r.name,
    kind: r.kind,
    url: r.url ?? "",
    emailTo: r.emailTo ?? "",
    emailFrom: r.emailFrom ?? "",
    severities: [...(r.matchers.severities ?? [])],
    host: r.matchers.host ?? "",
    service: r.matchers.service ?? "",
    item: r.matchers.item ?? "",
    repeatMinutes: r.repeatIntervalSeconds === null ? "" : String(r.repeatIntervalSeconds / 60),
    enabled: r.enabled,
  };
}

export type ReceiverErrors = Partial<Record<keyof ReceiverDraft, string>>;

export interface ReceiverInput {
  name: string;
  kind: ReceiverKind;
  url: string;
  enabled: boolean;
  matchers: ReceiverMatchers;
  repeatIntervalSeconds: number | null;
  emailTo: string | null;
  emailFrom: string | null;
}

const MAX_REPEAT_MINUTES = 7 * 24 * 60;

/** The API input, or what is wrong, per field. */
export function receiverInput(d: ReceiverDraft): { ok: true; input: ReceiverInput } | { ok: false; errors: ReceiverErrors } {
  const errors: ReceiverErrors = {};
  const name = d.name.trim();
  if (name === "" || name.length > 100) errors.name = "give it a name (at most 100 characters)";
  const email = d.kind === "email";
  const emailTo = email ? d.emailTo.trim() : null;
  const emailFrom = email && d.emailFrom.trim() !== "" ? d.emailFrom.trim() : null;
  const url = d.url.trim();
  if (url === "") errors.url = `the ${email ? "SMTP server" : "URL"} is required`;
  else {
    const problem = receiverProblem({ kind: d.kind, url, emailTo, emailFrom });
    if (problem?.startsWith("emailTo")) errors.emailTo = "one or more addresses, separated by commas";
    else if (problem?.startsWith("emailFrom")) errors.emailFrom = "an address, e.g. tidemark@example.com";
    else if (problem) errors.url = problem;
  }
  const globs = { host: d.host.trim(), service: d.service.trim(), item: d.item.trim() };
  const matchers = receiverMatchersSchema.safeParse({
    ...(d.severities.length > 0 ? { severities: d.severities } : {}),
    ...Object.fromEntries(Object.entries(globs).filter(([, v]) => v !== "")),
  });
  if (!matchers.success)
    for (const issue of matchers.error.issues) {
      const field = String(issue.path[0]) as keyof ReceiverDraft;
      errors[field] ??= field === "severities" ? issue.message : "at most 200 characters";
    }
  let repeatIntervalSeconds: number | null = null;
  if (d.repeatMinutes.trim() !== "") {
    const minutes = Number(d.repeatMinutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_REPEAT_MINUTES)
      errors.repeatMinutes = `whole minutes from 1 to ${MAX_REPEAT_MINUTES} (a week), or empty to send once`;
    else repeatIntervalSeconds = minutes * 60;
  }
  if (Object.keys(errors).length > 0 || !matchers.success) return { ok: false, errors };
  return {
    ok: true,
    input: { name, kind: d.kind, url, enabled: d.enabled, matchers: matchers.data, repeatIntervalSeconds, emailTo, emailFrom },
  };
}

/** "CRITICAL, WARNING · host db*" / "every alert": what a receiver gets, for the list. */
export function describeMatchers(m: ReceiverMatchers): string {
  const parts = [
    m.severities ? m.severities.join(", ") : null,
    m.host ? `host ${m.host}` : null,
    m.service ? `service ${m.service}` : null,
    m.item ? `item ${m.item}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? "every alert" : parts.join(" · ");
}

export function describeRepeat(kind: ReceiverKind, seconds: number | null): string {
  if (kind === "alertmanager") return "every minute while firing (Alertmanager's resend)";
  return seconds === null ? "once" : `every ${seconds / 60} min while firing`;
}
