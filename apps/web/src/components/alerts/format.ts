import { formatNumber } from "@tidemark/thresholds";

let dateTimeFormat: Intl.DateTimeFormat | null = null;

/**
 * An instant as "23 Nov 2026, 14:05:09 UTC". The formatter is made on first use, not when the
 * module loads: making it costs tens of milliseconds (time zone data), which a page's first load
 * would pay before anything on it had rendered.
 */
export function formatDateTime(instant: Date | number): string {
  dateTimeFormat ??= new Intl.DateTimeFormat("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
  return dateTimeFormat.format(instant);
}

export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "< 1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export const optionalNumber = (n: number | null) => (n === null ? "NA" : formatNumber(n));
