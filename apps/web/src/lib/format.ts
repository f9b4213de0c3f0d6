/**
 * How the dashboard writes numbers and ages: one format for tooltips, explanations, cards and tables.
 *
 * A measured or computed value is written with the significant digits a person would write
 * (`105.89150000000001` → `105.9`, `0.000123456` → `0.0001235`, `12000` → `12000`): at most
 * `SIGNIFICANT` of them after the integer part is spent, and an integer part is never rounded
 * away (a threshold of 1 234 567 stays 1234567, not 1235000, since it is a number a user typed).
 * No exponent and no thousands separator: what is shown can be copied into an expression.
 */

export const SIGNIFICANT = 4;

let significant: Intl.NumberFormat | null = null;
let whole: Intl.NumberFormat | null = null;

export function formatNumber(n: number | null | undefined, empty = "—"): string {
  if (n === null || n === undefined) return empty;
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "∞" : "−∞";
  // Made on first use: a formatter costs a few milliseconds of locale data, paid only when needed.
  significant ??= new Intl.NumberFormat("en-US", { maximumSignificantDigits: SIGNIFICANT, useGrouping: false });
  whole ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, useGrouping: false });
  const text = Math.abs(n) >= 10 ** SIGNIFICANT ? whole.format(n) : significant.format(n);
  return text === "-0" ? "0" : text;
}

/** A count with thousands grouped by thin spaces (cards and summaries: `12 345`). */
export function formatCount(n: number | null | undefined, empty = "—"): string {
  if (n === null || n === undefined) return empty;
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
}

/** How long ago `at` was, coarsely: `now`, `45 s`, `12 min`, `3 h`, `2 d` (`never` without one). */
export function formatAge(at: Date | number | string | null | undefined, now: number): string {
  if (at === null || at === undefined) return "never";
  const seconds = Math.max(0, Math.round((now - new Date(at).getTime()) / 1000));
  if (seconds < 5) return "now";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}
