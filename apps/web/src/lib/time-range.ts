/**
 * The time range of every time-based view (overview history, threshold preview, alert timeline),
 * as Grafana's picker has it: a relative range ("last 7 days", sliding with now) or an absolute
 * one, written in the URL as `?range=7d` or `?from=<ISO>&to=<ISO>`. Pure: no React, no clock.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The presets, the same on every page. */
export const PRESETS = {
  "1h": HOUR,
  "6h": 6 * HOUR,
  "24h": DAY,
  "7d": 7 * DAY,
  "30d": 30 * DAY,
  "90d": 90 * DAY,
} as const;
export type Preset = keyof typeof PRESETS;
export const PRESET_KEYS = Object.keys(PRESETS) as Preset[];

export const PRESET_LABELS: Record<Preset, string> = {
  "1h": "Last hour",
  "6h": "Last 6 hours",
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
};

/** The shortest range there is: zooming stops here. */
export const MIN_SPAN = MINUTE;
/** The longest: what the presets offer, and what zooming out stops at. */
export const MAX_SPAN = PRESETS["90d"];

export type TimeRange = { kind: "relative"; preset: Preset } | { kind: "absolute"; from: number; to: number };
export interface Bounds {
  from: number;
  to: number;
}

const isPreset = (text: string | null): text is Preset => text !== null && Object.hasOwn(PRESETS, text);

function parseInstant(text: string | null): number | null {
  if (!text) return null;
  const t = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(t) ? t : null;
}

/** The range in `params`; an absolute range shorter than a minute, reversed or unparsable gives way to `range`, then `fallback`. */
export function readRange(params: URLSearchParams, fallback: Preset): TimeRange {
  const from = parseInstant(params.get("from"));
  const to = parseInstant(params.get("to"));
  if (from !== null && to !== null && to - from >= MIN_SPAN) return { kind: "absolute", from, to };
  const range = params.get("range");
  return { kind: "relative", preset: isPreset(range) ? range : fallback };
}

/** `params` with the range written into it (and any other range removed). */
export function writeRange(params: URLSearchParams, range: TimeRange): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ["range", "from", "to"]) next.delete(key);
  if (range.kind === "relative") next.set("range", range.preset);
  else {
    next.set("from", new Date(range.from).toISOString());
    next.set("to", new Date(range.to).toISOString());
  }
  return next;
}

/** The range in instants; a relative one ends at `now`. */
export function resolveRange(range: TimeRange, now: number): Bounds {
  return range.kind === "absolute" ? { from: range.from, to: range.to } : { from: now - PRESETS[range.preset], to: now };
}

/** Zooms by `factor` (< 1 in, > 1 out) around `center`, never below a minute nor beyond 90 days. */
export function zoomRange(bounds: Bounds, factor: number, center = (bounds.from + bounds.to) / 2): TimeRange {
  const span = Math.min(MAX_SPAN, Math.max(MIN_SPAN, (bounds.to - bounds.from) * factor));
  const ratio = (center - bounds.from) / (bounds.to - bounds.from);
  const from = Math.round(center - span * ratio);
  return { kind: "absolute", from, to: Math.round(from + span) };
}

/** Shifts by `fraction` of the span (negative: earlier). */
export function panRange(bounds: Bounds, fraction: number): TimeRange {
  const shift = Math.round((bounds.to - bounds.from) * fraction);
  return { kind: "absolute", from: bounds.from + shift, to: bounds.to + shift };
}

/** The absolute range between two instants in either order (a drag on a chart), or null when under a minute. */
export function selectionRange(a: number, b: number): TimeRange | null {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  return to - from >= MIN_SPAN ? { kind: "absolute", from: Math.round(from), to: Math.round(to) } : null;
}

// ---- Time zones ------------------------------------------------------------------------------

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `t` in `timeZone` (formatters made once per zone, on first use). */
export function wallClock(t: number, timeZone: string) {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    partsFormats.set(timeZone, format);
  }
  const f: Record<string, string> = {};
  for (const p of format.formatToParts(t)) f[p.type] = p.value;
  return {
    year: Number(f.year),
    month: Number(f.month),
    day: Number(f.day),
    hour: Number(f.hour),
    minute: Number(f.minute),
    second: Number(f.second),
    weekday: f.weekday ?? "",
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `t`, in ms. */
export function zoneOffset(t: number, timeZone: string): number {
  const w = wallClock(t, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (t - (((t % 1000) + 1000) % 1000));
}

/** The instant whose wall clock in `timeZone` reads the given fields (the later one in a DST overlap). */
export function fromWallClock(
  fields: { year: number; month: number; day: number; hour: number; minute: number },
  timeZone: string,
): number {
  const guess = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute);
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

const pad = (n: number) => String(n).padStart(2, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2026-11-23 14:05`: what the range inputs show and accept (24-hour, in `timeZone`). */
export function toInputText(t: number, timeZone: string): string {
  const w = wallClock(t, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}

/** Reads `2026-11-23 14:05` (or with a `T`, or a date alone) as a wall-clock time in `timeZone`; null when it is not one. */
export function parseInputText(text: string, timeZone: string): number | null {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const t = fromWallClock({ year, month, day, hour, minute }, timeZone);
  // 31 Feb and the like come back as another day.
  return wallClock(t, timeZone).day === day ? t : null;
}

/** A tick's label: `23 Nov` at a midnight over a long span, else `14:00` (`23 Nov 14:00` when `withDate`). */
export function tickLabel(t: number, span: number, timeZone: string): string {
  const w = wallClock(t, timeZone);
  const date = `${w.day} ${MONTHS[w.month - 1]}`;
  const time = `${pad(w.hour)}:${pad(w.minute)}`;
  if (span > 2 * DAY) return w.hour === 0 && w.minute === 0 ? date : `${date} ${time}`;
  return time;
}

/** `23 Nov 2026, 14:05` in `timeZone` (`:09` seconds too when `seconds`). */
export function formatInstant(t: number, timeZone: string, seconds = false): string {
  const w = wallClock(t, timeZone);
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year}, ${pad(w.hour)}:${pad(w.minute)}${seconds ? `:${pad(w.second)}` : ""}`;
}

/** An instant as every page writes it: `23 Nov 2026, 14:05` in `timeZone`, ` UTC` added when that is the zone. */
export function formatZonedInstant(t: number, timeZone: string, seconds = false): string {
  return `${formatInstant(t, timeZone, seconds)}${timeZone === "UTC" ? " UTC" : ""}`;
}

/** What the picker's button says: `Last 7 days`, or `23 Nov 2026, 14:05 – 24 Nov 2026, 09:30`. */
export function describeRange(range: TimeRange, timeZone: string): string {
  if (range.kind === "relative") return PRESET_LABELS[range.preset];
  return `${formatInstant(range.from, timeZone)} – ${formatInstant(range.to, timeZone)}`;
}

const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY];

/**
 * Tick marks at round times of `timeZone`'s wall clock (whole hours, midnights) giving at most
 * `count` of them: a step from STEPS, counted from the zone's midnight so that "every 6 h" is
 * 00, 06, 12, 18 there, not in UTC.
 */
export function timeTicks(bounds: Bounds, count: number, timeZone = "UTC"): number[] {
  const span = bounds.to - bounds.from;
  if (!(span > 0)) return [];
  const step = STEPS.find((s) => span / s <= count) ?? Math.ceil(span / count / (7 * DAY)) * 7 * DAY;
  const ticks: number[] = [];
  if (step < DAY) {
    // Sub-day steps: round the wall clock, so that half-hour zones still get :00 ticks.
    const offset = zoneOffset(bounds.from, timeZone);
    for (let local = Math.ceil((bounds.from + offset) / step) * step; local - offset <= bounds.to; local += step) {
      const t = local - zoneOffset(local - offset, timeZone);
      if (t >= bounds.from && t <= bounds.to && ticks.at(-1) !== t) ticks.push(t);
    }
    return ticks;
  }
  // Whole days: local midnights, every `days` of them counted from the epoch day so ticks stay put while panning.
  const days = step / DAY;
  const start = wallClock(bounds.from, timeZone);
  for (let day = Math.floor(Date.UTC(start.year, start.month - 1, start.day) / DAY); ; day++) {
    const d = new Date(day * DAY);
    const t = fromWallClock({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0 }, timeZone);
    if (t > bounds.to) break;
    if (t >= bounds.from && day % days === 0) ticks.push(t);
  }
  return ticks;
}
