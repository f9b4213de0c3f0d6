import type { State } from "@tidemark/thresholds";

/** The timeline's window and filters, kept in the URL so that a view can be shared and reloaded. */

export const LIVE_RANGES = {
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
} as const;
export type LiveRange = keyof typeof LIVE_RANGES;

export type TimelineWindow = { kind: "live"; range: LiveRange } | { kind: "fixed"; from: number; to: number };

export type Tristate = boolean | null;

export interface TimelineView {
  window: TimelineWindow;
  severities: Exclude<State, "OK">[];
  status: "any" | "open" | "closed";
  host: string;
  service: string;
  acknowledged: Tristate;
  flapping: Tristate;
  alert: string | null;
}

export const DEFAULT_VIEW: TimelineView = {
  window: { kind: "live", range: "24h" },
  severities: [],
  status: "any",
  host: "",
  service: "",
  acknowledged: null,
  flapping: null,
  alert: null,
};

const SEVERITIES = ["WARNING", "CRITICAL", "UNKNOWN"] as const;
const MIN_SPAN = 60_000;

function parseInstant(text: string | null): number | null {
  if (!text) return null;
  const t = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(t) ? t : null;
}

const parseTristate = (text: string | null): Tristate => (text === "yes" ? true : text === "no" ? false : null);
const tristateText = (v: Tristate) => (v === null ? null : v ? "yes" : "no");

export function parseView(params: URLSearchParams): TimelineView {
  const from = parseInstant(params.get("from"));
  const to = parseInstant(params.get("to"));
  const range = params.get("range");
  const window: TimelineWindow =
    from !== null && to !== null && to - from >= MIN_SPAN
      ? { kind: "fixed", from, to }
      : { kind: "live", range: range && range in LIVE_RANGES ? (range as LiveRange) : "24h" };
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
  const params = new URLSearchParams();
  if (view.window.kind === "live") params.set("range", view.window.range);
  else {
    params.set("from", new Date(view.window.from).toISOString());
    params.set("to", new Date(view.window.to).toISOString());
  }
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

/** The window in instants; a live one ends at `now`. */
export function resolveWindow(window: TimelineWindow, now: number): { from: number; to: number } {
  return window.kind === "fixed" ? { from: window.from, to: window.to } : { from: now - LIVE_RANGES[window.range], to: now };
}

/**
 * What `alerts.timeline` is asked for a view at `now`: the server page prefetches exactly this and
 * the page's query asks for it again, so that the two meet in one cache entry.
 */
export function timelineRequest(view: TimelineView, now: number) {
  const { from, to } = resolveWindow(view.window, now);
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

/** Zooms by `factor` (< 1 in, > 1 out) around `center`, never below a minute. */
export function zoom(window: { from: number; to: number }, factor: number, center = (window.from + window.to) / 2): TimelineWindow {
  const span = Math.max(MIN_SPAN, (window.to - window.from) * factor);
  const ratio = (center - window.from) / (window.to - window.from);
  const from = Math.round(center - span * ratio);
  return { kind: "fixed", from, to: Math.round(from + span) };
}

export function pan(window: { from: number; to: number }, fraction: number): TimelineWindow {
  const shift = Math.round((window.to - window.from) * fraction);
  return { kind: "fixed", from: window.from + shift, to: window.to + shift };
}
