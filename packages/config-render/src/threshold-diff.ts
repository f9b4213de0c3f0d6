import { seriesKey } from "@tidemark/model";
import type { HourEntry, HourLevels, MonthRule, Period, ThresholdPolicy, WeekRule } from "@tidemark/thresholds/policy";
import { canonicalJson } from "./canonical.ts";
import { ChangeList, type FieldChange, pairUp } from "./diff.ts";
import { type EvaluatedItemSpec, evaluatedItems } from "./evaluated.ts";
import type { DeploymentSnapshot } from "./snapshot.ts";

/** What changes in how the worker evaluates one item: its threshold, alert settings or calculation. */
export interface ItemEvaluationChange {
  seriesKey: string;
  host: string;
  service: string;
  item: string;
  change: "added" | "removed" | "changed";
  fields: FieldChange[];
}

const CALC_NAMES = { ">": "> (should be higher)", "<": "< (should be lower)", "=": "= (should be near)" } as const;

export function formatHourEntry(entry: HourEntry): string {
  if (entry === null) return "none";
  return entry.kind === "constant" ? String(entry.value) : entry.source;
}

const formatLevels = (levels: HourLevels) => (levels === null ? "period's" : `${levels.warning} % / ${levels.critical} %`);

const formatMonths = (rules: readonly MonthRule[]) =>
  rules
    .map((r) =>
      [r.month === null ? null : `month ${r.month}`, r.dayOfMonth === null ? null : `day ${r.dayOfMonth}`].filter(Boolean).join(" "),
    )
    .join(", ");
const formatWeeks = (rules: readonly WeekRule[]) =>
  rules
    .map((r) =>
      [r.week === null ? null : `week ${r.week}`, r.dayOfWeek === null ? null : `weekday ${r.dayOfWeek}`].filter(Boolean).join(" "),
    )
    .join(", ");

/** A period's match rules in words: "default", "weekday 1, weekday 7", "month 12 day 24". */
export function describePeriod(period: Period): string {
  const parts = [formatMonths(period.months), formatWeeks(period.weeks)].filter((p) => p !== "");
  return parts.length ? parts.join("; ") : "default";
}

/** Hours 0–23 whose before → after are equal are written as one range ("hours 0–5"). */
function hourChanges(
  list: ChangeList,
  label: string,
  before: readonly string[] | null,
  after: readonly string[] | null,
  what: string,
): void {
  let start = 0;
  for (let h = 1; h <= 24; h++) {
    const same = h < 24 && (before?.[h] ?? null) === (before?.[start] ?? null) && (after?.[h] ?? null) === (after?.[start] ?? null);
    if (same) continue;
    const hours = h - 1 === start ? `hour ${start}` : `hours ${start}–${h - 1}`;
    list.add(`${label} · ${hours}${what}`, before?.[start] ?? null, after?.[start] ?? null);
    start = h;
  }
}

function periodChanges(list: ChangeList, position: number, before: Period | undefined, after: Period | undefined): void {
  const label = `period ${position + 1}`;
  list.add(label, before ? describePeriod(before) : null, after ? describePeriod(after) : null);
  list.add(`${label} · calc method`, before ? CALC_NAMES[before.calcMethod] : null, after ? CALC_NAMES[after.calcMethod] : null);
  list.add(`${label} · warning`, before ? `${before.warning} %` : null, after ? `${after.warning} %` : null);
  list.add(`${label} · critical`, before ? `${before.critical} %` : null, after ? `${after.critical} %` : null);
  hourChanges(list, label, before?.hours.entries.map(formatHourEntry) ?? null, after?.hours.entries.map(formatHourEntry) ?? null, "");
  hourChanges(list, label, before?.hours.levels.map(formatLevels) ?? null, after?.hours.levels.map(formatLevels) ?? null, " levels");
}

/** Every difference between two threshold policies (null: no threshold), as old → new lines. */
export function diffPolicy(before: ThresholdPolicy | null, after: ThresholdPolicy | null): FieldChange[] {
  const list = new ChangeList();
  if (canonicalJson(before) === canonicalJson(after)) return list.fields;
  list.add("threshold", before ? "set" : "none", after ? "set" : "none");
  const periods = Math.max(before?.periods.length ?? 0, after?.periods.length ?? 0);
  for (let i = 0; i < periods; i++) periodChanges(list, i, before?.periods[i], after?.periods[i]);
  for (const pair of pairUp(before?.holidays ?? [], after?.holidays ?? [], (h) => String(h.year))) {
    list.add(`holidays ${pair.key}`, pair.before ? pair.before.days.join(", ") : null, pair.after ? pair.after.days.join(", ") : null);
  }
  list.add("state when the value is null", before?.nullState ?? null, after?.nullState ?? null);
  list.add("max soft", before ? String(before.maxSoft) : null, after ? String(after.maxSoft) : null);
  list.add("time zone", before?.timeZone ?? null, after?.timeZone ?? null);
  return list.fields;
}

/** What decides an item's alerts, as the worker holds it. */
export type ItemDecision = Pick<
  EvaluatedItemSpec,
  "policy" | "recoveryMarginPercent" | "minimumDurationSeconds" | "stateSource" | "staleAfterIntervals"
>;

/** Threshold and alert-setting changes of one item, old → new (null: the item is absent on that side). */
export function diffItemDecision(before: ItemDecision | null, after: ItemDecision | null): FieldChange[] {
  const alerting = new ChangeList();
  if (before && after)
    alerting
      .add("recovery margin", `${before.recoveryMarginPercent} %`, `${after.recoveryMarginPercent} %`)
      .add("minimum duration", `${before.minimumDurationSeconds} s`, `${after.minimumDurationSeconds} s`)
      .add("state source", before.stateSource, after.stateSource)
      .add("stale after", `${before.staleAfterIntervals} intervals`, `${after.staleAfterIntervals} intervals`);
  return [...diffPolicy(before?.policy ?? null, after?.policy ?? null), ...alerting.fields];
}

function itemChanges(
  before: EvaluatedItemSpec | undefined,
  after: EvaluatedItemSpec | undefined,
  calc: { before?: string; after?: string },
) {
  // An item added or removed with neither threshold nor calculation decides no alert: the check diff covers it.
  const decides = (spec: EvaluatedItemSpec | undefined, source: string | undefined) => spec?.policy != null || source !== undefined;
  if ((!before || !after) && !decides(before, calc.before) && !decides(after, calc.after)) return [];
  return [
    ...diffItemDecision(before ?? null, after ?? null),
    ...new ChangeList().add("calculation", calc.before ?? null, calc.after ?? null).fields,
  ];
}

/** Calculations (bischeck://) by series key: the expression the worker computes. */
function calculations(snapshot: Pick<DeploymentSnapshot, "configuration"> | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const host of snapshot?.configuration.hosts ?? [])
    for (const service of host.services)
      if (service.url.startsWith("bischeck://"))
        for (const item of service.items) out.set(seriesKey(host.name, service.name, item.name), item.execStatement);
  return out;
}

/**
 * What changes in what the worker evaluates, item by item, going from the deployed snapshot
 * (null: nothing deployed yet) to `after`: thresholds (hour values, warning/critical, periods,
 * holidays), alert settings and calculations, as old → new.
 */
export function diffEvaluation(before: DeploymentSnapshot | null, after: DeploymentSnapshot): ItemEvaluationChange[] {
  const oldCalcs = calculations(before);
  const newCalcs = calculations(after);
  const out: ItemEvaluationChange[] = [];
  for (const pair of pairUp(before ? evaluatedItems(before) : [], evaluatedItems(after), (i) => i.seriesKey)) {
    const fields = itemChanges(pair.before, pair.after, { before: oldCalcs.get(pair.key), after: newCalcs.get(pair.key) });
    if (fields.length === 0) continue;
    const spec = (pair.after ?? pair.before)!;
    out.push({
      seriesKey: pair.key,
      host: spec.host,
      service: spec.service,
      item: spec.item,
      change: pair.before === undefined ? "added" : pair.after === undefined ? "removed" : "changed",
      fields,
    });
  }
  return out.sort((a, b) => (a.seriesKey < b.seriesKey ? -1 : a.seriesKey > b.seriesKey ? 1 : 0));
}
