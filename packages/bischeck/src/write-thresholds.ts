/** Writer of 24thresholds.xml: servicedefs, servicedefgroups where a template still fits, shared hours, holidays. */
import type { Configuration } from "@tidemark/model";
import type { HourEntry, HourLevels, Hours, Period, ThresholdPolicy } from "@tidemark/thresholds/policy";
import { same } from "./equal.ts";
import { HOURS_PER_DAY, hourEntryFromText } from "./read-thresholds.ts";
import { type BischeckTemplates, type ItemRef, itemKey } from "./templates.ts";
import { element, leaf, type XmlNode } from "./xml-write.ts";

/** Above this many intervals, the 24 `<hour>` form is written instead (when no per-hour levels). */
const MAX_INTERVALS = 4;

function hourText(entry: HourEntry): string {
  if (entry === null) return "null";
  return entry.kind === "constant" ? String(entry.value) : entry.source;
}

function pad(h: number): string {
  return `${String(h).padStart(2, "0")}:00`;
}

class ThresholdsWriter {
  private readonly hoursIds = new Map<string, number>();
  readonly hoursNodes: XmlNode[] = [];
  constructor(private readonly warnings: string[]) {}

  periodNode(period: Period, where: string): XmlNode {
    return element("period", [
      ...period.months.map((m) =>
        element("months", [m.month !== null && leaf("month", m.month), m.dayOfMonth !== null && leaf("dayofmonth", m.dayOfMonth)]),
      ),
      ...period.weeks.map((w) =>
        element("weeks", [w.week !== null && leaf("week", w.week), w.dayOfWeek !== null && leaf("dayofweek", w.dayOfWeek)]),
      ),
      leaf("calcmethod", period.calcMethod),
      leaf("warning", period.warning),
      leaf("critical", period.critical),
      leaf("hoursIDREF", this.hoursId(period.hours, where)),
    ]);
  }

  /** Identical hours are written once and shared by hoursIDREF. */
  private hoursId(hours: Hours, where: string): number {
    const key = JSON.stringify(hours);
    const known = this.hoursIds.get(key);
    if (known !== undefined) return known;
    const id = this.hoursIds.size + 1;
    this.hoursIds.set(key, id);
    this.hoursNodes.push(this.hoursNode(hours, id, where));
    return id;
  }

  private hoursNode(hours: Hours, id: number, where: string): XmlNode {
    for (const entry of hours.entries) {
      const text = hourText(entry);
      if (!same(hourEntryFromText(text.trim()), entry)) {
        this.warnings.push(`${where}: hour value "${text}" will read back as ${JSON.stringify(hourEntryFromText(text.trim()))}`);
      }
    }
    const levels = hours.levels.map((l, h) => {
      if (l !== null && hours.entries[h] === null) {
        this.warnings.push(`${where}: warning/critical of hour ${pad(h)} are not written: the hour has no threshold`);
        return null;
      }
      return l;
    });
    const runs: {
      from: number;
      to: number;
      entry: HourEntry;
      levels: HourLevels;
    }[] = [];
    for (let h = 0; h < HOURS_PER_DAY; h++) {
      const entry = hours.entries[h] ?? null;
      const level = levels[h] ?? null;
      if (entry === null) continue;
      const last = runs.at(-1);
      if (last && last.to === h - 1 && same(last.entry, entry) && same(last.levels, level)) last.to = h;
      else runs.push({ from: h, to: h, entry, levels: level });
    }
    const needsIntervals = levels.some((l) => l !== null);
    if (runs.length === 0 || (!needsIntervals && runs.length > MAX_INTERVALS)) {
      return element(
        "hours",
        hours.entries.map((e) => leaf("hour", hourText(e))),
        { hoursID: String(id) },
      );
    }
    return element(
      "hours",
      runs.map((r) =>
        element("hourinterval", [
          leaf("from", pad(r.from)),
          leaf("to", pad(r.to)),
          leaf("threshold", hourText(r.entry)),
          r.levels && leaf("warning", r.levels.warning),
          r.levels && leaf("critical", r.levels.critical),
        ]),
      ),
      { hoursID: String(id) },
    );
  }
}

function refNodes(ref: ItemRef): XmlNode[] {
  return [leaf("hostname", ref.host), leaf("servicename", ref.service), leaf("serviceitemname", ref.item)];
}

/** Bischeck's holidays are per file: one list for every policy (a union, with a warning, if they differ). */
function fileHolidays(policies: ThresholdPolicy[], warnings: string[]): ThresholdPolicy["holidays"] {
  const [first] = policies;
  if (!first) return [];
  if (policies.every((p) => same(p.holidays, first.holidays))) return first.holidays;
  warnings.push("policies have different holidays; Bischeck has one holiday list per file, their union is written");
  const union: ThresholdPolicy["holidays"] = [];
  for (const p of policies) for (const h of p.holidays) if (!union.some((u) => same(u, h))) union.push(h);
  return union;
}

export function writeThresholds(configuration: Configuration, templates: BischeckTemplates, warnings: string[]): XmlNode {
  const defs: { ref: ItemRef; policy: ThresholdPolicy }[] = [];
  for (const host of configuration.hosts)
    for (const service of host.services)
      for (const item of service.items) {
        if (!item.policy) continue;
        const ref = { host: host.name, service: service.name, item: item.name };
        defs.push({ ref, policy: item.policy });
        const where = `${host.name}-${service.name}-${item.name}`;
        if (item.policy.nullState !== "UNKNOWN")
          warnings.push(
            `${where}: nullState ${item.policy.nullState} is not written (Bischeck's stateOnNull is global, in properties.xml)`,
          );
        if (item.policy.timeZone !== "UTC")
          warnings.push(`${where}: time zone ${item.policy.timeZone} is not written (Bischeck uses the JVM's zone)`);
        if (item.policy.notFullListParse !== undefined || (item.policy.deviations?.length ?? 0) > 0)
          warnings.push(`${where}: notFullListParse and deviations are not written (set notFullListParse in Bischeck's properties.xml)`);
      }

  const writer = new ThresholdsWriter(warnings);
  const byKey = new Map(defs.map((d) => [itemKey(d.ref), d]));
  const grouped = new Set<string>();
  const groups: XmlNode[] = [];
  const templateNodes: XmlNode[] = [];
  for (const template of templates.thresholdTemplates) {
    const members = template.members.filter((m) => {
      const def = byKey.get(itemKey(m));
      return def !== undefined && !grouped.has(itemKey(m)) && same(def.policy.periods, template.periods);
    });
    if (members.length === 0) continue;
    for (const m of members) grouped.add(itemKey(m));
    groups.push(element("servicedefgroup", [...members.map((m) => element("member", refNodes(m))), leaf("template", template.name)]));
    templateNodes.push(
      element(
        "servicedeftemplate",
        template.periods.map((p) => writer.periodNode(p, `servicedeftemplate ${template.name}`)),
        { templatename: template.name },
      ),
    );
  }
  const servicedefs = defs
    .filter((d) => !grouped.has(itemKey(d.ref)))
    .map((d) =>
      element("servicedef", [
        ...refNodes(d.ref),
        ...d.policy.periods.map((p) => writer.periodNode(p, `${d.ref.host}-${d.ref.service}-${d.ref.item}`)),
      ]),
    );
  const holidays = fileHolidays(
    defs.map((d) => d.policy),
    warnings,
  ).map((h) =>
    element(
      "holiday",
      h.days.map((d) => leaf("dayofyear", d)),
      { year: String(h.year) },
    ),
  );
  return element("twenty4threshold", [...servicedefs, ...groups, ...templateNodes, ...writer.hoursNodes, ...holidays]);
}
