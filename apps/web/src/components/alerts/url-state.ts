import type { State } from "@tidemark/thresholds";

import { readRange, resolveRange, type TimeRange, writeRange } from "../../lib/time-range";

/** The timeline's window and filters, kept in the URL so that a view can be shared and reloaded. */

export type Tristate = boolean | null;

export interface TimelineView {
  window: TimeRange;
  severities: Exclude<State, "OK">[];
  status: "any" | "open" | "closed";
  host: string;
  service: string;
  acknowledged: Tristate;
  flapping: Tristate;
  alert: string | null;
}

export const DEFAULT_VIEW: TimelineView = {
  window: { kind: "relative", preset: "24h" },
  severities: [],
  status: "any",
  host: "",
  service: "",
  acknowledged: null,
  flapping: null,
  alert: null,
};

const SEVERITIES = ["WARNING", "CRITICAL", "UNKNOWN"] as const;

const parseTristate = (text: string | null): Tristate => (text === "yes" ? true : text === "no" ? false : null);
const tristateText = (v: Tristate) => (v === null ? null : v ? "yes" : "no");

export function parseView(params: URLSearchParams): TimelineView {
  const window = readRange(params, "24h");
  const status = params.get("status");
  return {
    window,
    severities: (params.get("severity") ?? "")
      .split(",")
      .filter((s): s is (typeof SEVERITIES)[number] => (SEVERITIES as readonly string[]).includes(s)),
    status: status === "open" || status === "closed" ? status : "any",
    host: params.get("host") ?? "",
    service: params.get("service") ?? "",
    acknowledged: parseTristate(params.get("ack")),
    flapping: parseTristate(params.get("flapping")),
    alert: params.get("alert"),
  };
}

export function viewToParams(view: TimelineView): URLSearchParams {
  const params = writeRange(new URLSearchParams(), view.window);
  if (view.severities.length) params.set("severity", view.severities.join(","));
  if (view.status !== "any") params.set("status", view.status);
  if (view.host) params.set("host", view.host);
  if (view.service) params.set("service", view.service);
  const ack = tristateText(view.acknowledged);
  if (ack) params.set("ack", ack);
  const flapping = tristateText(view.flapping);
  if (flapping) params.set("flapping", flapping);
  if (view.alert) params.set("alert", view.alert);
  return params;
}

/**
 * What `alerts.timeline` is asked for a view at `now`: the server page prefetches exactly this and
 * the page's query asks for it again, so that the two meet in one cache entry.
 */
export function timelineRequest(view: TimelineView, now: number) {
  const { from, to } = resolveRange(view.window, now);
  return {
    from: new Date(from),
    to: new Date(to),
    severities: view.severities,
    status: view.status,
    host: view.host || null,
    service: view.service || null,
    acknowledged: view.acknowledged,
    flapping: view.flapping,
  };
}
