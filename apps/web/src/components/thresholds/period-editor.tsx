"use client";

import type { CalcMethod, MonthRule, Period, WeekRule } from "@tidemark/thresholds";
import { useState } from "react";
import { NumberField } from "./number-field";
import { MONTHS, WEEKDAYS } from "./policy-draft";

type RuleKind = "dayOfWeek" | "month" | "dayOfMonth" | "monthAndDay" | "week" | "weekAndDay";

const RULE_LABELS: Record<RuleKind, string> = {
  dayOfWeek: "Day of week",
  month: "Month",
  dayOfMonth: "Day of month",
  monthAndDay: "Month and day",
  week: "ISO week",
  weekAndDay: "Week and weekday",
};

function ruleFrom(kind: RuleKind, month: number, day: number, week: number, weekday: number): { months?: MonthRule; weeks?: WeekRule } {
  switch (kind) {
    case "dayOfWeek":
      return { weeks: { week: null, dayOfWeek: weekday } };
    case "week":
      return { weeks: { week, dayOfWeek: null } };
    case "weekAndDay":
      return { weeks: { week, dayOfWeek: weekday } };
    case "month":
      return { months: { month, dayOfMonth: null } };
    case "dayOfMonth":
      return { months: { month: null, dayOfMonth: day } };
    case "monthAndDay":
      return { months: { month, dayOfMonth: day } };
  }
}

const monthRuleText = (r: MonthRule) =>
  r.month !== null && r.dayOfMonth !== null
    ? `${MONTHS[r.month - 1]} ${r.dayOfMonth}`
    : r.month !== null
      ? `month ${MONTHS[r.month - 1]}`
      : `day ${r.dayOfMonth} of the month`;
const weekRuleText = (r: WeekRule) =>
  r.week !== null && r.dayOfWeek !== null
    ? `${WEEKDAYS[r.dayOfWeek - 1]} in week ${r.week}`
    : r.week !== null
      ? `week ${r.week}`
      : `every ${WEEKDAYS[(r.dayOfWeek ?? 1) - 1]}`;

/** A period's match rules, calc method and warning/critical levels. */
export function PeriodEditor({ period, onChange, errors }: { period: Period; onChange: (p: Period) => void; errors: Map<string, string> }) {
  const [kind, setKind] = useState<RuleKind>("dayOfWeek");
  const [month, setMonth] = useState(1);
  const [day, setDay] = useState(1);
  const [week, setWeek] = useState(1);
  const [weekday, setWeekday] = useState(1);

  function addRule() {
    const rule = ruleFrom(kind, month, day, week, weekday);
    onChange({
      ...period,
      months: rule.months ? [...period.months, rule.months] : period.months,
      weeks: rule.weeks ? [...period.weeks, rule.weeks] : period.weeks,
    });
  }

  return (
    <div className="period-editor">
      <div className="field-row">
        <label className="field">
          <span>Calc method</span>
          <select
            aria-label="Calc method"
            value={period.calcMethod}
            onChange={(e) => onChange({ ...period, calcMethod: e.target.value as CalcMethod })}
          >
            <option value="<">{"< value should stay below"}</option>
            <option value=">">{"> value should stay above"}</option>
            <option value="=">= value should stay near</option>
          </select>
        </label>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
        <label className="field">
          <span>Warning %</span>
          <NumberField
            label="Warning %"
            value={period.warning}
            invalid={errors.has("warning")}
            onChange={(v) => onChange({ ...period, warning: v ?? Number.NaN })}
          />
          {errors.get("warning") && <span className="field-error">{errors.get("warning")}</span>}
        </label>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
        <label className="field">
          <span>Critical %</span>
          <NumberField
            label="Critical %"
            value={period.critical}
            invalid={errors.has("critical")}
            onChange={(v) => onChange({ ...period, critical: v ?? Number.NaN })}
          />
          {errors.get("critical") && <span className="field-error">{errors.get("critical")}</span>}
        </label>
      </div>

      <div className="rules">
        <span className="muted">Applies on:</span>
        {period.months.length === 0 && period.weeks.length === 0 && (
          <span className="chip">every day no other period claims (default)</span>
        )}
        {period.months.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a rule has no identity beyond its place; identical rules may repeat
          <span key={`m${i}-${r.month}-${r.dayOfMonth}`} className="chip">
            {monthRuleText(r)}
            <button
              type="button"
              aria-label={`Remove rule ${monthRuleText(r)}`}
              onClick={() => onChange({ ...period, months: period.months.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </span>
        ))}
        {period.weeks.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a rule has no identity beyond its place; identical rules may repeat
          <span key={`w${i}-${r.week}-${r.dayOfWeek}`} className="chip">
            {weekRuleText(r)}
            <button
              type="button"
              aria-label={`Remove rule ${weekRuleText(r)}`}
              onClick={() => onChange({ ...period, weeks: period.weeks.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </span>
        ))}
      </div>
      <div className="rule-add">
        <select aria-label="Rule kind" value={kind} onChange={(e) => setKind(e.target.value as RuleKind)}>
          {(Object.keys(RULE_LABELS) as RuleKind[]).map((k) => (
            <option key={k} value={k}>
              {RULE_LABELS[k]}
            </option>
          ))}
        </select>
        {(kind === "month" || kind === "monthAndDay") && (
          <select aria-label="Month" value={month} onChange={(e) => setMonth(Number(e.target.value))}>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        )}
        {(kind === "dayOfMonth" || kind === "monthAndDay") && (
          <input aria-label="Day of month" type="number" min={1} max={31} value={day} onChange={(e) => setDay(Number(e.target.value))} />
        )}
        {(kind === "week" || kind === "weekAndDay") && (
          <input aria-label="ISO week" type="number" min={1} max={53} value={week} onChange={(e) => setWeek(Number(e.target.value))} />
        )}
        {(kind === "dayOfWeek" || kind === "weekAndDay") && (
          <select aria-label="Weekday" value={weekday} onChange={(e) => setWeekday(Number(e.target.value))}>
            {WEEKDAYS.map((d, i) => (
              <option key={d} value={i + 1}>
                {d}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="secondary" onClick={addRule}>
          Add rule
        </button>
      </div>
      {(errors.get("months") ?? errors.get("weeks")) && <p className="field-error">{errors.get("months") ?? errors.get("weeks")}</p>}
    </div>
  );
}
