/** Wall-clock parts of an instant in a time zone. */
export interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** Milliseconds since the start of the local minute. */
  readonly msInMinute: number;
}

export interface DateFacts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** 1 = Sunday … 7 = Saturday, as Bischeck (java.util.Calendar). */
  readonly dayOfWeek: number;
  /** ISO-8601 week number, 1..53. */
  readonly isoWeek: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The last local hour seen per zone: a worker evaluates many thresholds at nearly the same
 * instant, and inside one local hour the wall clock follows from plain arithmetic.
 */
const lastHour = new Map<string, LocalTime & { readonly start: number }>();

/** Formatters are costly to build; one per zone is reused for the process's lifetime. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      throw new RangeError(`unknown time zone '${timeZone}'`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

function isUtc(timeZone: string): boolean {
  return timeZone === "UTC" || timeZone === "Etc/UTC" || timeZone === "GMT" || timeZone === "Etc/GMT";
}

export function localTime(timeZone: string, at: number): LocalTime {
  const msInSecond = ((at % 1000) + 1000) % 1000;
  if (isUtc(timeZone)) {
    const d = new Date(at);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      msInMinute: d.getUTCSeconds() * 1000 + msInSecond,
    };
  }
  const cached = lastHour.get(timeZone);
  if (cached !== undefined && at >= cached.start && at < cached.start + HOUR_MS) {
    const into = at - cached.start;
    return {
      year: cached.year,
      month: cached.month,
      day: cached.day,
      hour: cached.hour,
      minute: Math.floor(into / 60_000),
      msInMinute: into % 60_000,
    };
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const local: LocalTime = {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    msInMinute: (parts.second ?? 0) * 1000 + msInSecond,
  };
  lastHour.set(timeZone, { ...local, start: at - local.minute * 60_000 - local.msInMinute });
  return local;
}

/** Day of week and ISO week from the calendar date alone (no time zone involved any more). */
export function dateFacts(year: number, month: number, day: number): DateFacts {
  const date = Date.UTC(year, month - 1, day);
  const weekday = new Date(date).getUTCDay();
  const mondayBased = (weekday + 6) % 7;
  // The ISO week belongs to the year of its Thursday.
  const thursday = date + (3 - mondayBased) * DAY_MS;
  const thursdayYear = new Date(thursday).getUTCFullYear();
  const isoWeek = 1 + Math.floor((thursday - Date.UTC(thursdayYear, 0, 1)) / DAY_MS / 7);
  return { year, month, day, dayOfWeek: weekday + 1, isoWeek };
}
