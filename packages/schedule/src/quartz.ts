import { ScheduleError } from "./error.ts";

/**
 * Quartz's cron expressions (org.quartz.CronExpression), read the way Quartz reads them:
 * `seconds minutes hours day-of-month month day-of-week [year]`, day-of-week 1 = Sunday … 7 =
 * Saturday, exactly one of day-of-month and day-of-week is `?`, `L`, `W`, `LW`, `L-n`, `nL`,
 * `n#k`, overflowing ranges (`22-2`, `FRI-MON`), `a/n` steps, names in any case. Errors carry
 * the position of the character they are about.
 */

/** Day-of-month as Quartz keeps it: plain days, nearest weekdays, and days counted from the month's end. */
export interface DayOfMonth {
  /** 1–31. */
  days: number[];
  /** `15W`: the weekday nearest the 15th, not crossing the month. */
  nearestWeekdays: number[];
  /** `L` is 0, `L-3` is 3: that many days before the month's last day. */
  fromLast: number[];
  /** `LW` is 0, `L-3W` is 3: the weekday nearest that day. */
  nearestWeekdayFromLast: number[];
}

/** Day-of-week, 1 = Sunday … 7 = Saturday. */
export type DayOfWeek = { kind: "days"; days: number[] } | { kind: "nth"; day: number; nth: number } | { kind: "last"; day: number };

export interface QuartzFields {
  seconds: number[];
  minutes: number[];
  hours: number[];
  /** null: `?`. */
  dayOfMonth: DayOfMonth | null;
  /** 1–12. */
  months: number[];
  /** null: `?`. */
  dayOfWeek: DayOfWeek | null;
  /** null: any year. */
  years: number[] | null;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** The largest step Quartz accepts (its checkIncrementRange). */
  maxStep: number;
  names?: readonly string[];
}

const MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;
const DAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;

/** Quartz documents years up to 2199. */
export const QUARTZ_MAX_YEAR = 2199;
export const QUARTZ_MIN_YEAR = 1970;

const SECOND: FieldSpec = { name: "seconds", min: 0, max: 59, maxStep: 59 };
const MINUTE: FieldSpec = { name: "minutes", min: 0, max: 59, maxStep: 59 };
const HOUR: FieldSpec = { name: "hours", min: 0, max: 23, maxStep: 23 };
const DAY_OF_MONTH: FieldSpec = { name: "day-of-month", min: 1, max: 31, maxStep: 31 };
const MONTH: FieldSpec = { name: "month", min: 1, max: 12, maxStep: 12, names: MONTH_NAMES };
const DAY_OF_WEEK: FieldSpec = { name: "day-of-week", min: 1, max: 7, maxStep: 7, names: DAY_NAMES };
const YEAR: FieldSpec = { name: "year", min: QUARTZ_MIN_YEAR, max: QUARTZ_MAX_YEAR, maxStep: QUARTZ_MAX_YEAR - QUARTZ_MIN_YEAR };

/** A piece of the text and where it starts. */
interface Token {
  text: string;
  at: number;
}

function tokens(text: string, separator: RegExp, base: number): Token[] {
  const out: Token[] = [];
  let start = 0;
  for (const match of text.matchAll(separator)) {
    out.push({ text: text.slice(start, match.index), at: base + start });
    start = match.index + match[0].length;
  }
  out.push({ text: text.slice(start), at: base + start });
  return out;
}

/** A number or (month, day-of-week) a three-letter name, in the field's own numbering. */
function value(token: Token, spec: FieldSpec): number {
  const { text, at } = token;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < spec.min || n > spec.max) throw new ScheduleError(`${spec.name} must be ${spec.min}–${spec.max}, not ${text}`, at);
    return n;
  }
  const index = spec.names?.indexOf(text.toUpperCase() as never) ?? -1;
  if (index >= 0) return index + 1;
  if (text === "") throw new ScheduleError(`a value is missing in ${spec.name}`, at);
  throw new ScheduleError(
    spec.names
      ? `"${text}" is not a ${spec.name} (a number ${spec.min}–${spec.max} or ${spec.names[0]}–${spec.names.at(-1)})`
      : `"${text}" is not a number for ${spec.name}`,
    at,
  );
}

function step(token: Token, spec: FieldSpec): number {
  if (!/^\d+$/.test(token.text)) throw new ScheduleError(`a step must be a whole number, not "${token.text}"`, token.at);
  const n = Number(token.text);
  if (n < 1 || n > spec.maxStep) throw new ScheduleError(`a step in ${spec.name} must be 1–${spec.maxStep}`, token.at);
  return n;
}

/**
 * `*`, `a`, `a-b`, each with an optional `/step`; `a/step` runs to the field's end. A range whose
 * end is before its start overflows (`22-2` is 22, 23, 0, 1, 2), as Quartz does.
 */
function rangeValues(item: Token, spec: FieldSpec): number[] {
  const [range, stepText, extra] = tokens(item.text, /\//g, item.at);
  if (extra) throw new ScheduleError(`one "/" per value in ${spec.name}`, extra.at - 1);
  const by = stepText ? step(stepText, spec) : 1;
  let from: number;
  let to: number;
  if (range!.text === "*" || (range!.text === "" && stepText)) {
    from = spec.min;
    to = spec.max;
  } else {
    const [first, last, more] = tokens(range!.text, /-/g, range!.at);
    if (more) throw new ScheduleError(`a range in ${spec.name} has one "-"`, more.at - 1);
    from = value(first!, spec);
    to = last ? value(last, spec) : stepText ? spec.max : from;
    if (last && to < from && spec === YEAR) throw new ScheduleError("a range of years must not end before it starts", last.at);
  }
  const span = spec.max - spec.min + 1;
  const end = to < from ? to + span : to;
  const out: number[] = [];
  for (let v = from; v <= end; v += by) out.push(v > spec.max ? v - span : v);
  return out;
}

function plainField(field: Token, spec: FieldSpec): number[] {
  const set = new Set<number>();
  for (const item of tokens(field.text, /,/g, field.at)) {
    const bad = /[^0-9A-Za-z*/-]/.exec(item.text);
    if (bad) throw new ScheduleError(`"${bad[0]}" is not allowed in ${spec.name}`, item.at + bad.index);
    for (const v of rangeValues(item, spec)) set.add(v);
  }
  return [...set].sort((a, b) => a - b);
}

function dayOfMonthField(field: Token): DayOfMonth | null {
  if (field.text === "?") return null;
  const out: DayOfMonth = { days: [], nearestWeekdays: [], fromLast: [], nearestWeekdayFromLast: [] };
  for (const item of tokens(field.text, /,/g, field.at)) {
    const text = item.text.toUpperCase();
    const last = /^L(?:-(\d+))?(W?)$/.exec(text);
    if (last) {
      const offset = last[1] === undefined ? 0 : Number(last[1]);
      if (offset > 30) throw new ScheduleError("the offset from the last day (L-n) must be at most 30", item.at + 2);
      (last[2] ? out.nearestWeekdayFromLast : out.fromLast).push(offset);
      continue;
    }
    if (text.startsWith("L")) throw new ScheduleError(`"${item.text}": day-of-month takes L, L-n, LW or L-nW`, item.at);
    const weekday = /^(\d+)W$/.exec(text);
    if (weekday) {
      out.nearestWeekdays.push(value({ text: weekday[1]!, at: item.at }, DAY_OF_MONTH));
      continue;
    }
    const w = text.indexOf("W");
    if (w >= 0) throw new ScheduleError("W follows a single day of the month (15W), not a range or a step", item.at + w);
    if (text === "?") throw new ScheduleError("? stands alone in day-of-month", item.at);
    out.days.push(...plainField(item, DAY_OF_MONTH));
  }
  out.days = [...new Set(out.days)].sort((a, b) => a - b);
  return out;
}

function dayOfWeekField(field: Token): DayOfWeek | null {
  const text = field.text.toUpperCase();
  if (text === "?") return null;
  // `L` alone is Saturday.
  if (text === "L") return { kind: "days", days: [7] };
  const hash = text.indexOf("#");
  if (hash >= 0) {
    if (text.includes(",")) throw new ScheduleError("n#k (the k-th day n of the month) stands alone in day-of-week", field.at + hash);
    const day = value({ text: field.text.slice(0, hash), at: field.at }, DAY_OF_WEEK);
    const nth = field.text.slice(hash + 1);
    if (!/^[1-5]$/.test(nth))
      throw new ScheduleError("# is followed by 1–5 (the first to fifth such day of the month)", field.at + hash + 1);
    return { kind: "nth", day, nth: Number(nth) };
  }
  const last = /^(\d+|[A-Z]{3})L$/.exec(text);
  if (last) return { kind: "last", day: value({ text: last[1]!, at: field.at }, DAY_OF_WEEK) };
  // No day name holds an L, so any other L is misplaced.
  const l = text.indexOf("L");
  if (l >= 0) throw new ScheduleError("L in day-of-week stands alone (Saturday) or after one day (6L, the last Friday)", field.at + l);
  return { kind: "days", days: plainField(field, DAY_OF_WEEK) };
}

const FIELD_COUNT_HINT = "seconds minutes hours day-of-month month day-of-week [year]";

/** Reads a Quartz cron expression; throws a ScheduleError pointing at the first problem. */
export function parseQuartz(text: string): QuartzFields {
  const fields: Token[] = [];
  for (const match of text.matchAll(/\S+/g)) fields.push({ text: match[0], at: match.index });
  if (fields.length < 6)
    throw new ScheduleError(`a Quartz cron expression has 6 or 7 fields (${FIELD_COUNT_HINT}); this has ${fields.length}`, text.length);
  if (fields.length > 7) throw new ScheduleError(`a Quartz cron expression has at most 7 fields (${FIELD_COUNT_HINT})`, fields[7]!.at);
  const [s, m, h, dom, mon, dow, year] = fields as [Token, Token, Token, Token, Token, Token, Token | undefined];
  for (const [field, spec] of [
    [s, SECOND],
    [m, MINUTE],
    [h, HOUR],
    [mon, MONTH],
  ] as const) {
    if (field.text.includes("?"))
      throw new ScheduleError(`? is only for day-of-month or day-of-week, not ${spec.name}`, field.at + field.text.indexOf("?"));
  }
  const result: QuartzFields = {
    seconds: plainField(s, SECOND),
    minutes: plainField(m, MINUTE),
    hours: plainField(h, HOUR),
    dayOfMonth: dayOfMonthField(dom),
    months: plainField(mon, MONTH),
    dayOfWeek: dayOfWeekField(dow),
    years: year === undefined || year.text === "*" ? null : plainField(year, YEAR),
  };
  if (result.dayOfMonth === null && result.dayOfWeek === null)
    throw new ScheduleError("? can be in day-of-month or in day-of-week, not both", dow.at);
  if (result.dayOfMonth !== null && result.dayOfWeek !== null)
    throw new ScheduleError("Quartz needs ? in day-of-month or in day-of-week (0 0 12 ? * MON, 0 0 12 1 * ?)", dom.at);
  return result;
}
