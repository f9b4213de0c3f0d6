import type { CalcMethod, Period, ThresholdPolicy } from "@tidemark/thresholds";
import { stringify } from "yaml";

/**
 * A threshold policy as a Prometheus rule group: recording rules draw the threshold line and its
 * warning and critical boundaries hour by hour, exactly as Tidemark computes them (the same
 * floating-point operations in the same order), and two alerting rules fire when Tidemark's state
 * would be a hard WARNING or CRITICAL.
 */

export interface RuleExportInput {
  /** The series key, a label on every rule (`series`). */
  key: string;
  /** A PromQL selector of the measured series, e.g. `node_load1{instance="db1:9100",job="node"}`. */
  selector: string;
  policy: ThresholdPolicy;
  /** The sampling (scrape and evaluation) interval: `for:` is (maxSoft − 1) intervals. */
  intervalSeconds: number;
  /** Extra labels on the alerts (host, service, item…). */
  labels?: Record<string, string>;
}

/** What a policy uses that Prometheus rules cannot say: the message names the part. */
export class RuleExportError extends Error {}

/** Fires when Tidemark's state is hard (either severity); the severity alerts are filtered by it. */
export const PROBLEM_ALERT = "TidemarkThresholdProblem";

export const RECORDED = {
  threshold: "tidemark:threshold",
  warning: "tidemark:threshold_warning",
  critical: "tidemark:threshold_critical",
  warningLow: "tidemark:threshold_warning_low",
  criticalLow: "tidemark:threshold_critical_low",
} as const;

/** A condition on the (UTC) date, as PromQL filters on label-less vectors; null is "always". */
type DateCondition = string | null;

/** "NEVER" stands for the condition that never holds; it is never rendered (a period under it is left out). */
const and = (a: DateCondition, b: DateCondition): DateCondition =>
  a === "NEVER" || b === "NEVER" ? "NEVER" : a === null ? b : b === null ? a : `(${a} and on() ${b})`;
const or = (items: string[]): DateCondition =>
  items.length === 0 ? "NEVER" : items.length === 1 ? (items[0] as string) : `(${items.join(" or ")})`;
const not = (a: DateCondition): DateCondition => (a === null ? "NEVER" : a === "NEVER" ? null : `(vector(1) unless on() ${a})`);

type Rule = "monthAndDayOfMonth" | "weekAndDayOfWeek" | "dayOfMonth" | "dayOfWeek" | "month" | "week" | "default";

/** One period's rules of one kind as a disjunction of PromQL date tests; "NEVER" when it has none. */
function matches(period: Period, rule: Rule): string {
  const tests: string[] = [];
  switch (rule) {
    case "monthAndDayOfMonth":
      for (const r of period.months)
        if (r.month !== null && r.dayOfMonth !== null) tests.push(`(month() == ${r.month} and on() day_of_month() == ${r.dayOfMonth})`);
      break;
    case "dayOfMonth":
      for (const r of period.months) if (r.month === null && r.dayOfMonth !== null) tests.push(`(day_of_month() == ${r.dayOfMonth})`);
      break;
    case "month":
      for (const r of period.months) if (r.month !== null && r.dayOfMonth === null) tests.push(`(month() == ${r.month})`);
      break;
    case "dayOfWeek":
      // Bischeck counts 1 = Sunday … 7 = Saturday; PromQL 0 = Sunday … 6 = Saturday.
      for (const r of period.weeks) if (r.week === null && r.dayOfWeek !== null) tests.push(`(day_of_week() == ${r.dayOfWeek - 1})`);
      break;
    case "weekAndDayOfWeek":
    case "week":
      if (period.weeks.some((r) => r.week !== null))
        throw new RuleExportError(
          "week-number rules have no PromQL equivalent (PromQL has no ISO week): export needs a policy without them",
        );
      break;
    case "default":
      return period.months.length === 0 && period.weeks.length === 0 ? "ALWAYS" : "NEVER";
  }
  return tests.length ? (or(tests) as string) : "NEVER";
}

const RULES: readonly Rule[] = ["monthAndDayOfMonth", "weekAndDayOfWeek", "dayOfMonth", "dayOfWeek", "month", "week", "default"];

/**
 * When each period is in force, following Tidemark's selection: the rules in precedence order,
 * each scanning the periods in file order, the first match winning.
 */
function periodConditions(policy: ThresholdPolicy): { period: Period; when: DateCondition }[] {
  const out: { period: Period; when: DateCondition }[] = [];
  let earlierRules: DateCondition = "NEVER";
  for (const rule of RULES) {
    let earlierPeriods: DateCondition = "NEVER";
    const thisRule: string[] = [];
    for (const period of policy.periods) {
      const m = matches(period, rule);
      if (m === "NEVER") continue;
      const test = m === "ALWAYS" ? null : m;
      const when = and(and(test, not(earlierPeriods)), not(earlierRules));
      if (when !== "NEVER") out.push({ period, when });
      if (test === null) {
        earlierPeriods = null;
        break;
      }
      earlierPeriods = earlierPeriods === "NEVER" ? test : or([earlierPeriods as string, test]);
      thisRule.push(test);
    }
    if (earlierPeriods === null) break;
    if (thisRule.length) earlierRules = earlierRules === "NEVER" ? or(thisRule) : or([earlierRules as string, ...thisRule]);
  }
  return out;
}

function holidayCondition(policy: ThresholdPolicy): DateCondition {
  const days = policy.holidays.flatMap((h) =>
    h.days.map(
      (mmdd) => `(year() == ${h.year} and on() month() == ${Number(mmdd.slice(0, 2))} and on() day_of_month() == ${Number(mmdd.slice(2))})`,
    ),
  );
  return days.length ? or(days) : "NEVER";
}

/** Numbers as PromQL reads them back exactly (shortest round-trip form). */
const num = (n: number) => (Object.is(n, -0) ? "0" : String(n));

type Line = "threshold" | "warning" | "critical" | "warningLow" | "criticalLow";

/** The boundary's factor: T·(100 ∓ pct)/100, as Tidemark's boundaries(). */
function factor(calc: CalcMethod, line: Line, warningPct: number, criticalPct: number): number | null {
  const below = (p: number) => 100 - p;
  const above = (p: number) => 100 + p;
  switch (line) {
    case "threshold":
      return null;
    case "warning":
      return calc === ">" ? below(warningPct) : above(warningPct);
    case "critical":
      return calc === ">" ? below(criticalPct) : above(criticalPct);
    case "warningLow":
      return below(warningPct);
    case "criticalLow":
      return below(criticalPct);
  }
}

/** One period's line over the day: per hour, T[h] + (minute · (T[h+1] − T[h])) / 60, then the boundary's factor. */
function periodLine(period: Period, line: Line): string | null {
  const values = period.hours.entries.map((entry, hour) => {
    if (entry === null) return null;
    if (entry.kind === "expression") {
      throw new RuleExportError(
        `hour ${hour} is the expression "${entry.source}": only constant hours can be exported as Prometheus rules`,
      );
    }
    return entry.value;
  });
  const pieces: string[] = [];
  for (let hour = 0; hour < 24; hour++) {
    const a = values[hour];
    const b = values[(hour + 1) % 24];
    if (a === null || a === undefined || b === null || b === undefined) continue;
    const levels = period.hours.levels[hour] ?? null;
    const k = factor(period.calcMethod, line, levels?.warning ?? period.warning, levels?.critical ?? period.critical);
    let t = a === b ? `vector(${num(a)})` : `(${num(a)} + (minute() * ${num(b - a)}) / 60)`;
    if (k !== null) t = `((${t} * ${num(k)}) / 100)`;
    pieces.push(`(${t} and on() hour() == ${hour})`);
  }
  return pieces.length ? pieces.join(" or ") : null;
}

function lineExpression(policy: ThresholdPolicy, line: Line): string | null {
  const holidays = holidayCondition(policy);
  const parts: string[] = [];
  for (const { period, when } of periodConditions(policy)) {
    const expr = periodLine(period, line);
    if (expr === null) continue;
    const filter = and(when, not(holidays));
    if (filter === "NEVER") continue;
    parts.push(filter === null ? `(${expr})` : `((${expr}) and on() ${filter})`);
  }
  return parts.length ? parts.join(" or ") : null;
}

function duration(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
}

/** `series="…"` with PromQL string escaping. */
const seriesMatcher = (key: string) => `{series=${JSON.stringify(key)}}`;

/** The alerting conditions per severity, by calculation method (strict comparisons, as Tidemark's classify). */
function conditions(calc: CalcMethod, selector: string, key: string): { critical: string; warning: string } {
  const ref = (name: string) => `on() group_left() ${name}${seriesMatcher(key)}`;
  const s = `(${selector})`;
  switch (calc) {
    case ">":
      return {
        critical: `${s} < ${ref(RECORDED.critical)}`,
        warning: `(${s} < ${ref(RECORDED.warning)}) unless (${s} < ${ref(RECORDED.critical)})`,
      };
    case "<":
      return {
        critical: `${s} > ${ref(RECORDED.critical)}`,
        warning: `(${s} > ${ref(RECORDED.warning)}) unless (${s} > ${ref(RECORDED.critical)})`,
      };
    case "=": {
      const critical = `((${s} > ${ref(RECORDED.critical)}) or (${s} < ${ref(RECORDED.criticalLow)}))`;
      return { critical, warning: `((${s} > ${ref(RECORDED.warning)}) or (${s} < ${ref(RECORDED.warningLow)})) unless ${critical}` };
    }
  }
}

/** A rule group file (YAML) for `rule_files:`; throws RuleExportError for what PromQL cannot say. */
export function renderRuleGroup(input: RuleExportInput): string {
  return stringify({ groups: [ruleGroup(input)] }, { lineWidth: 0 });
}

export function ruleGroup(input: RuleExportInput) {
  const { policy, key } = input;
  if (!/^(UTC|Etc\/UTC|GMT|Etc\/GMT)$/.test(policy.timeZone)) {
    throw new RuleExportError(`the policy reads hours in ${policy.timeZone}; PromQL's hour() is UTC: export needs a policy in UTC`);
  }
  const methods = new Set(policy.periods.map((p) => p.calcMethod));
  if (methods.size > 1) throw new RuleExportError("the periods use different calculation methods (>, <, =): export needs one");
  const calc = policy.periods[0]?.calcMethod ?? ">";
  const lines: Line[] =
    calc === "=" ? ["threshold", "warning", "critical", "warningLow", "criticalLow"] : ["threshold", "warning", "critical"];
  const labels = { series: key };
  const rules: Record<string, unknown>[] = [];
  for (const line of lines) {
    const expr = lineExpression(policy, line);
    if (expr !== null) rules.push({ record: RECORDED[line], expr, labels });
  }
  const when = conditions(calc, input.selector, key);
  // Tidemark's problem turns hard on the (maxSoft + 1)-th non-OK result in a row, WARNING and
  // CRITICAL alike, and then follows the latest result's severity until an OK. Prometheus fires
  // once a condition has held for `for:` since its first true evaluation: the problem (either band)
  // held for maxSoft intervals; the severity alerts follow it without waiting.
  const holdFor = duration(Math.max(0, policy.maxSoft) * input.intervalSeconds);
  const alertLabels = { ...input.labels, series: key };
  const annotations = (severity: string) => ({
    summary: `${key} is ${severity}`,
    description: `value {{ $value }} against Tidemark's threshold for ${key}`,
  });
  const hard = `on() group_left() ALERTS{alertname="${PROBLEM_ALERT}",alertstate="firing",series=${JSON.stringify(key)}}`;
  rules.push(
    { alert: PROBLEM_ALERT, expr: `(${when.critical}) or (${when.warning})`, for: holdFor, labels: { ...alertLabels, severity: "none" } },
    {
      alert: "TidemarkThresholdCritical",
      expr: `(${when.critical}) and ${hard.replace("group_left() ", "")}`,
      labels: { ...alertLabels, severity: "critical" },
      annotations: annotations("CRITICAL"),
    },
    {
      alert: "TidemarkThresholdWarning",
      expr: `(${when.warning}) and ${hard.replace("group_left() ", "")}`,
      labels: { ...alertLabels, severity: "warning" },
      annotations: annotations("WARNING"),
    },
  );
  return { name: `tidemark:${key}`, interval: duration(input.intervalSeconds), rules };
}
