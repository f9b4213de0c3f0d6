/** The preview window as it is written in the URL: `?window=7d`, or `?window=custom&from=…&to=…`. */

export const PRESETS = { "24h": 1, "7d": 7, "30d": 30 } as const;
export type Preset = keyof typeof PRESETS;

export type PreviewWindow = { kind: "preset"; preset: Preset } | { kind: "custom"; from: Date; to: Date };

const DAY = 86_400_000;

export function readWindow(params: URLSearchParams): PreviewWindow {
  const w = params.get("window");
  if (w === "custom") {
    const from = new Date(params.get("from") ?? "");
    const to = new Date(params.get("to") ?? "");
    if (!Number.isNaN(from.getTime()) && !Number.isNaN(to.getTime()) && from < to) return { kind: "custom", from, to };
  }
  return { kind: "preset", preset: w === "24h" || w === "30d" ? w : "7d" };
}

export function writeWindow(params: URLSearchParams, window: PreviewWindow): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("from");
  next.delete("to");
  if (window.kind === "preset") next.set("window", window.preset);
  else {
    next.set("window", "custom");
    next.set("from", window.from.toISOString());
    next.set("to", window.to.toISOString());
  }
  return next;
}

/** Absolute bounds; presets end at `now` rounded up to the minute. */
export function bounds(window: PreviewWindow, now: number): { from: Date; to: Date } {
  if (window.kind === "custom") return { from: window.from, to: window.to };
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: new Date(to - PRESETS[window.preset] * DAY), to: new Date(to) };
}

/** `?at=`: a moment to mark on the preview (the alert detail links here with the moment the alert fired). */
export function readMoment(params: URLSearchParams): Date | null {
  const at = params.get("at");
  const moment = at ? new Date(at) : null;
  return moment && !Number.isNaN(moment.getTime()) ? moment : null;
}

/** `2026-11-23T09:00` in UTC, for datetime-local inputs (the dashboard shows UTC). */
export function toInputValue(d: Date): string {
  return d.toISOString().slice(0, 16);
}
