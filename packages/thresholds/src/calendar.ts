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
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatter(timeZone).formatToParts(at)) {
    switch (part.type) {
      case "year":
        year = Number(part.value);
        break;
      case "month":
        month = Number(part.value);
        break;
      case "day":
        day = Number(part.value);
        break;
      case "hour":
        hour = Number(part.value);
        break;
      case "minute":
        minute = Number(part.value);
        break;
      case "second":
        second = Number(part.value);
        break;
      default:
        break;
    }
  }
  return { year, month, day, hour, minute, msInMinute: second * 1000 + msInSecond };
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
