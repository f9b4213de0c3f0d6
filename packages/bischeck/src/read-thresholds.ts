/**
 * Reader of Bischeck 1.x `24thresholds.xml` (Twenty4HourThreshold): servicedef, servicedefgroup +
 * servicedeftemplate, periods, hours (24 `<hour>`s or `<hourinterval>`s) and holidays.
 *
 * Bischeck semantics kept: a servicedef for an item wins over a servicedefgroup membership, and
 * the first of several servicedefs for one item wins (later ones are warned about); template names
 * match case-insensitively; holidays in the file apply to every servicedef; hour values "null" or
 * empty mean no threshold; later hour intervals win and uncovered hours are null.
 */
import {
  type CalcMethod,
  type Holiday,
  type HourEntry,
  type HourLevels,
  type Hours,
  holidaySchema,
  type MonthRule,
  type Period,
  type WeekRule,
} from "@tidemark/thresholds/policy";
import type { IssueCollector } from "./errors.ts";
import { leafText, parsePlainNumber, readChildren, readInteger, readPercent, validated } from "./read-helpers.ts";
import { type ItemRef, itemKey, type ThresholdTemplate } from "./templates.ts";
import type { XmlElement } from "./xml.ts";

export const HOURS_PER_DAY = 24;

/** A Bischeck hour value: "null"/empty → null, a plain number → constant, else an expression. */
export function hourEntryFromText(text: string): HourEntry {
  if (text === "" || text.toLowerCase() === "null") return null;
  const value = parsePlainNumber(text);
  return value === null ? { kind: "expression", source: text } : { kind: "constant", value };
}

interface Interval {
  from: number;
  to: number;
  entry: HourEntry;
  warning: number | undefined;
  critical: number | undefined;
}
type RawHours = { kind: "hours"; entries: HourEntry[] } | { kind: "intervals"; intervals: Interval[] };

interface RawPeriod {
  el: XmlElement;
  months: MonthRule[];
  weeks: WeekRule[];
  calcMethod: CalcMethod;
  warning: number;
  critical: number;
  hoursRef: XmlElement;
  hoursId: number;
}

export interface ThresholdDefinition {
  ref: ItemRef;
  /** The servicedef or servicedefgroup `<member>` element it came from. */
  el: XmlElement;
  periods: Period[];
}

export interface ThresholdsRead {
  definitions: ThresholdDefinition[];
  holidays: Holiday[];
  templates: ThresholdTemplate[];
}

const CALC_METHODS: readonly string[] = [">", "<", "="];

class ThresholdsReader {
  private readonly hours = new Map<number, RawHours>();
  /** hoursIDs declared but refused: periods referring to them report nothing more. */
  private readonly brokenHours = new Set<number>();
  constructor(private readonly ctx: IssueCollector) {}

  read(root: XmlElement): ThresholdsRead {
    const top = readChildren(this.ctx, root, {
      servicedef: "*",
      servicedefgroup: "*",
      servicedeftemplate: "*",
      hours: "*",
      holiday: "*",
    });
    for (const el of top.all("hours")) this.readHours(el);
    const holidays = top
      .all("holiday")
      .map((el) => this.readHoliday(el))
      .filter((h): h is Holiday => h !== null);

    const definitions: ThresholdDefinition[] = [];
    const byItem = new Map<string, ThresholdDefinition>();
    const add = (definition: ThresholdDefinition, via: string): void => {
      const key = itemKey(definition.ref);
      const earlier = byItem.get(key);
      if (earlier) {
        this.ctx.warn(
          definition.el,
          `${via} for ${describe(definition.ref)} is ignored: line ${earlier.el.line} already defines it (Bischeck uses the first)`,
        );
        return;
      }
      byItem.set(key, definition);
      definitions.push(definition);
    };

    for (const el of top.all("servicedef")) {
      const c = readChildren(this.ctx, el, {
        hostname: "1",
        servicename: "1",
        serviceitemname: "1",
        period: "+",
      });
      const ref = this.readRef(el, c.one("hostname"), c.one("servicename"), c.one("serviceitemname"));
      const periods = this.readPeriods(c.all("period"));
      if (ref && periods) add({ ref, el, periods }, "servicedef");
    }

    const templates = new Map<string, { name: string; periods: Period[] | null }>();
    for (const el of top.all("servicedeftemplate")) {
      const c = readChildren(this.ctx, el, { period: "+" }, ["templatename"]);
      const name = el.attributes.templatename?.trim();
      const periods = this.readPeriods(c.all("period"));
      if (!name) this.ctx.error(el, "<servicedeftemplate> needs a templatename attribute");
      else if (templates.has(name.toLowerCase())) this.ctx.error(el, `duplicate servicedeftemplate templatename="${name}"`);
      else templates.set(name.toLowerCase(), { name, periods });
    }

    const used = new Map<string, ThresholdTemplate>();
    for (const el of top.all("servicedefgroup")) {
      const c = readChildren(this.ctx, el, { member: "+", template: "1" });
      const templateEl = c.one("template");
      const templateName = templateEl ? leafText(this.ctx, templateEl) : "";
      const template = templates.get(templateName.toLowerCase());
      if (templateEl && !template) this.ctx.error(templateEl, `unknown servicedeftemplate "${templateName}"`);
      for (const member of c.all("member")) {
        const m = readChildren(this.ctx, member, {
          hostname: "1",
          servicename: "1",
          serviceitemname: "1",
        });
        const ref = this.readRef(member, m.one("hostname"), m.one("servicename"), m.one("serviceitemname"));
        if (!ref || !template?.periods) continue;
        const before = definitions.length;
        add({ ref, el: member, periods: structuredClone(template.periods) }, "servicedefgroup member");
        if (definitions.length === before) continue;
        const info = used.get(template.name) ?? {
          name: template.name,
          periods: template.periods,
          members: [],
        };
        info.members.push(ref);
        used.set(template.name, info);
      }
    }
    return { definitions, holidays, templates: [...used.values()] };
  }

  private readRef(el: XmlElement, host?: XmlElement, service?: XmlElement, item?: XmlElement): ItemRef | null {
    if (!host || !service || !item) return null;
    const ref = {
      host: leafText(this.ctx, host),
      service: leafText(this.ctx, service),
      item: leafText(this.ctx, item),
    };
    if (!ref.host || !ref.service || !ref.item) {
      this.ctx.error(el, `<${el.name}> needs a hostname, servicename and serviceitemname`);
      return null;
    }
    return ref;
  }

  private readPeriods(elements: XmlElement[]): Period[] | null {
    const raw = elements.map((el) => this.readPeriod(el));
    if (raw.some((p) => p === null)) return null;
    const periods: Period[] = [];
    for (const p of raw as RawPeriod[]) {
      let hours = this.hours.get(p.hoursId);
      if (!hours) {
        if (this.brokenHours.has(p.hoursId)) continue;
        // Bischeck selects the period and finds no table to fill: every hour is null (no threshold).
        this.ctx.warn(
          p.hoursRef,
          `hoursIDREF ${p.hoursId} refers to no <hours hoursID="${p.hoursId}">: the period is imported with no threshold in any hour, as Bischeck reads it`,
        );
        hours = { kind: "hours", entries: Array<HourEntry>(HOURS_PER_DAY).fill(null) };
      }
      periods.push({
        months: p.months,
        weeks: p.weeks,
        calcMethod: p.calcMethod,
        warning: p.warning,
        critical: p.critical,
        hours: resolveHours(hours, p.warning, p.critical),
      });
    }
    return periods.length === raw.length ? periods : null;
  }

  private readPeriod(el: XmlElement): RawPeriod | null {
    const c = readChildren(this.ctx, el, {
      months: "*",
      weeks: "*",
      calcmethod: "1",
      warning: "1",
      critical: "1",
      hoursIDREF: "1",
    });
    const months = c.all("months").map((m) => {
      const mc = readChildren(this.ctx, m, { month: "?", dayofmonth: "?" });
      return this.rule(m, mc.one("month"), 12, mc.one("dayofmonth"), 31, (month, dayOfMonth) => ({ month, dayOfMonth }));
    });
    const weeks = c.all("weeks").map((w) => {
      const wc = readChildren(this.ctx, w, { week: "?", dayofweek: "?" });
      return this.rule(w, wc.one("week"), 53, wc.one("dayofweek"), 7, (week, dayOfWeek) => ({ week, dayOfWeek }));
    });
    const calcEl = c.one("calcmethod");
    const calc = calcEl ? leafText(this.ctx, calcEl) : "";
    if (calcEl && !CALC_METHODS.includes(calc))
      this.ctx.error(calcEl, `<calcmethod> must be >, < or = (written &gt; &lt; =), got "${calc}"`);
    const warningEl = c.one("warning");
    const criticalEl = c.one("critical");
    const hoursRef = c.one("hoursIDREF");
    const warning = warningEl ? readPercent(this.ctx, warningEl) : null;
    const critical = criticalEl ? readPercent(this.ctx, criticalEl) : null;
    const hoursId = hoursRef ? readInteger(this.ctx, hoursRef, -2_147_483_648, 2_147_483_647) : null;
    if (!calcEl || !CALC_METHODS.includes(calc) || warning === null || critical === null || hoursRef === undefined || hoursId === null)
      return null;
    if (months.includes(null) || weeks.includes(null)) return null;
    return {
      el,
      months: months as MonthRule[],
      weeks: weeks as WeekRule[],
      calcMethod: calc as CalcMethod,
      warning,
      critical,
      hoursRef,
      hoursId,
    };
  }

  /** A months or weeks rule: two optional numbers of which at least one is given. */
  private rule<R>(
    el: XmlElement,
    first: XmlElement | undefined,
    firstMax: number,
    second: XmlElement | undefined,
    secondMax: number,
    make: (a: number | null, b: number | null) => R,
  ): R | null {
    const a = first && leafText(this.ctx, first) !== "" ? readInteger(this.ctx, first, 1, firstMax) : undefined;
    const b = second && leafText(this.ctx, second) !== "" ? readInteger(this.ctx, second, 1, secondMax) : undefined;
    if (a === null || b === null) return null;
    if (a === undefined && b === undefined) {
      this.ctx.error(el, `<${el.name}> needs at least one of its two values`);
      return null;
    }
    return make(a ?? null, b ?? null);
  }

  private readHours(el: XmlElement): void {
    const c = readChildren(this.ctx, el, { hour: "*", hourinterval: "*" }, ["hoursID"]);
    const idText = el.attributes.hoursID?.trim() ?? "";
    if (!/^[+-]?\d+$/.test(idText)) {
      this.ctx.error(el, `<hours> needs a whole-number hoursID attribute, got "${idText}"`);
      return;
    }
    const id = Number(idText);
    if (this.hours.has(id) || this.brokenHours.has(id)) {
      this.ctx.error(el, `duplicate <hours hoursID="${id}">`);
      return;
    }
    this.brokenHours.add(id);
    const hourEls = c.all("hour");
    const intervalEls = c.all("hourinterval");
    if (hourEls.length > 0 && intervalEls.length > 0) {
      this.ctx.error(el, "<hours> holds either 24 <hour> elements or <hourinterval> elements, not both");
      return;
    }
    if (intervalEls.length === 0) {
      if (hourEls.length !== HOURS_PER_DAY) {
        const at = hourEls[HOURS_PER_DAY] ?? el;
        this.ctx.error(at, `<hours hoursID="${id}"> has ${hourEls.length} <hour> elements, expected exactly 24 (or <hourinterval>s)`);
        return;
      }
      this.brokenHours.delete(id);
      this.hours.set(id, {
        kind: "hours",
        entries: hourEls.map((h) => hourEntryFromText(leafText(this.ctx, h))),
      });
      return;
    }
    const intervals = intervalEls.map((i) => this.readInterval(i));
    if (intervals.every((i): i is Interval => i !== null)) {
      this.brokenHours.delete(id);
      this.hours.set(id, { kind: "intervals", intervals });
    }
  }

  private readInterval(el: XmlElement): Interval | null {
    const c = readChildren(this.ctx, el, {
      from: "1",
      to: "1",
      threshold: "1",
      warning: "?",
      critical: "?",
    });
    const fromEl = c.one("from");
    const toEl = c.one("to");
    const thresholdEl = c.one("threshold");
    const from = fromEl ? this.readHourOfDay(fromEl) : null;
    const to = toEl ? this.readHourOfDay(toEl) : null;
    const warningEl = c.one("warning");
    const criticalEl = c.one("critical");
    const warning = warningEl ? readPercent(this.ctx, warningEl) : undefined;
    const critical = criticalEl ? readPercent(this.ctx, criticalEl) : undefined;
    if (from === null || to === null || !thresholdEl || warning === null || critical === null) return null;
    if (from > to) {
      this.ctx.error(el, `<hourinterval> from ${pad(from)}:00 is after to ${pad(to)}:00 (intervals are within one day, both inclusive)`);
      return null;
    }
    return {
      from,
      to,
      entry: hourEntryFromText(leafText(this.ctx, thresholdEl)),
      warning,
      critical,
    };
  }

  /**
   * "HH:00" → HH (0..23). Bischeck reads only the hour; other minutes are warned about. Its schema
   * allows hour 24 in `<to>`: Twenty4HourThreshold fills slot 24 of a 25-slot table and never
   * reads it, so `<to>24:00</to>` means the same as 23:00.
   */
  private readHourOfDay(el: XmlElement): number | null {
    const text = leafText(this.ctx, el);
    const match = /^(\d{1,2}):(\d{2})$/.exec(text);
    const hour = match ? Number(match[1]) : Number.NaN;
    const max = el.name === "to" ? 24 : 23;
    if (!match || hour > max || Number(match[2]) > 59 || (hour === 24 && match[2] !== "00")) {
      this.ctx.error(el, `<${el.name}> must be an hour of the day from 00:00 to ${max}:00, got "${text}"`);
      return null;
    }
    if (match[2] !== "00") this.ctx.warn(el, `minutes in "${text}" are ignored: hour entries are whole hours`);
    return Math.min(hour, 23);
  }

  private readHoliday(el: XmlElement): Holiday | null {
    const c = readChildren(this.ctx, el, { dayofyear: "*" }, ["year"]);
    const yearText = el.attributes.year?.trim() ?? "";
    const days = c.all("dayofyear").map((d) => {
      const text = leafText(this.ctx, d);
      return validated(this.ctx, d, holidaySchema.shape.days.element, text);
    });
    if (!/^\d{4}$/.test(yearText)) {
      this.ctx.error(el, `<holiday> needs a year attribute like year="2013", got "${yearText}"`);
      return null;
    }
    const holiday = {
      year: Number(yearText),
      days: days.filter((d): d is string => d !== null),
    };
    return validated(this.ctx, el, holidaySchema, holiday);
  }
}

function pad(h: number): string {
  return String(h).padStart(2, "0");
}

export function describe(ref: ItemRef): string {
  return `${ref.host}-${ref.service}-${ref.item}`;
}

/** The 24 entries and per-hour levels of a period (levels complete a partial override with the period's). */
function resolveHours(raw: RawHours, warning: number, critical: number): Hours {
  const levels: HourLevels[] = Array.from({ length: HOURS_PER_DAY }, () => null);
  if (raw.kind === "hours") return { entries: [...raw.entries], levels };
  const entries: HourEntry[] = Array.from({ length: HOURS_PER_DAY }, () => null);
  for (const interval of raw.intervals) {
    for (let h = interval.from; h <= interval.to; h++) {
      entries[h] = interval.entry;
      const overridden = interval.entry !== null && (interval.warning !== undefined || interval.critical !== undefined);
      levels[h] = overridden
        ? {
            warning: interval.warning ?? warning,
            critical: interval.critical ?? critical,
          }
        : null;
    }
  }
  return { entries, levels };
}

export function readThresholds(root: XmlElement, ctx: IssueCollector): ThresholdsRead {
  return new ThresholdsReader(ctx).read(root);
}
