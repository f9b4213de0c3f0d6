"use client";

import { useMutation } from "@tanstack/react-query";
import type { Period, ThresholdPolicy } from "@tidemark/thresholds";
import { useState } from "react";
import { formatNumber } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import { NumberField } from "./number-field";
import { setHourEntry } from "./policy-draft";

type BoundsChoice = "detect" | "percent" | "non-negative" | "any";
const BOUNDS: Record<BoundsChoice, { min: number | null; max: number | null } | null> = {
  detect: null,
  percent: { min: 0, max: 100 },
  "non-negative": { min: 0, max: null },
  any: { min: null, max: null },
};
const SCALE_TEXT = { identity: "", sqrt: " (in square-root scale)", log: " (in log scale)" } as const;
const SEASONALITY_TEXT = {
  none: "one level for every hour",
  "hour-of-day": "hour of the day",
  "weekday-weekend": "hour of the day, weekdays and weekends apart",
  "hour-of-week": "hour of the week",
} as const;

/**
 * Suggested thresholds for the selected period, fitted on the item's 5-minute and hourly history:
 * a seasonal profile chosen by how well it predicts held-back weeks, a margin and a persistence
 * fitted to the alert budget, and the alerts a week they raised on the later history the fit did
 * not see, with its range. Accepted hour by hour, whole, or with the periods it proposes.
 */
export function SuggestPanel({
  itemId,
  policy,
  periodIndex,
  onChange,
  onPolicyChange,
}: {
  itemId: string;
  policy: ThresholdPolicy | null;
  periodIndex: number;
  onChange: (p: Period) => void;
  onPolicyChange: (p: ThresholdPolicy) => void;
}) {
  const trpc = useTRPC();
  const suggest = useMutation(trpc.thresholds.suggest.mutationOptions());
  const [percentile, setPercentile] = useState<number | null>(95);
  const [budget, setBudget] = useState<number | null>(1);
  const [weeks, setWeeks] = useState<number | null>(4);
  const [bounds, setBounds] = useState<BoundsChoice>("detect");
  const [fitPersistence, setFitPersistence] = useState(true);
  const period = policy?.periods[periodIndex];
  const s = suggest.data;
  const ready = policy !== null && percentile !== null && budget !== null && weeks !== null;

  const applyHours = (p: Period): Period => {
    if (!s) return p;
    const withHours = s.hours.reduce<Period>(
      (q, value, hour) => (value === null ? q : setHourEntry(q, hour, { kind: "constant", value })),
      p,
    );
    return { ...withHours, hours: { ...withHours.hours, levels: withHours.hours.levels.map((l, h) => s.levels[h] ?? l) } };
  };

  return (
    <section className="panel" aria-label="Suggested thresholds">
      <div className="panel-head">
        <h2>Suggested thresholds for this period</h2>
        <form
          className="suggest-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (ready)
              suggest.mutate({
                itemId,
                policy,
                periodIndex,
                percentile,
                alertsPerWeek: budget,
                weeks,
                maxSoft: fitPersistence ? null : policy.maxSoft,
                bounds: BOUNDS[bounds],
              });
          }}
        >
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            keep <NumberField className="narrow" label="Percentile" value={percentile} onChange={setPercentile} /> % of results OK,
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            at most <NumberField className="narrow" label="Alerts a week" value={budget} onChange={setBudget} /> alerts a week
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            from <NumberField className="narrow" label="Weeks of history" value={weeks} onChange={setWeeks} /> weeks
          </label>
          <label>
            values are{" "}
            <select aria-label="Bounds" value={bounds} onChange={(e) => setBounds(e.target.value as BoundsChoice)}>
              <option value="detect">as declared for the item, else detected</option>
              <option value="percent">a percentage (0–100)</option>
              <option value="non-negative">never negative</option>
              <option value="any">unbounded</option>
            </select>
          </label>
          <label>
            <input type="checkbox" checked={fitPersistence} onChange={(e) => setFitPersistence(e.target.checked)} /> fit maxSoft
          </label>
          <button type="submit" disabled={!ready || suggest.isPending}>
            {suggest.isPending ? "Computing…" : "Suggest"}
          </button>
        </form>
      </div>
      {policy === null && <p className="muted">Fix the errors in the editor to get suggestions.</p>}
      {suggest.isError && <p className="error">{suggest.error.message}</p>}
      {s && period && policy && (
        <>
          <p className="muted" data-testid="suggest-summary">
            From {s.buckets} hourly buckets ({formatNumber(s.history.weeks)} weeks with data): {SEASONALITY_TEXT[s.seasonality]}
            {SCALE_TEXT[s.scale]}
            {period.calcMethod === "="
              ? ", the median of each hour"
              : `, each hour's ${period.calcMethod === "<" ? "upper" : "lower"} ${percentile}th percentile ${period.calcMethod === "<" ? "plus" : "minus"} ${formatNumber(s.margin)} spreads`}
            ,{" "}
            {s.maxSoft === 0
              ? "alerting on the first result past the line"
              : `alerting when ${s.maxSoft + 1} results in a row are past the line`}
            {s.maxSoft === policy.maxSoft ? "" : ` (maxSoft ${s.maxSoft}; the policy says ${policy.maxSoft})`}
            {s.bounds.source === "none"
              ? "."
              : `; lines kept within ${s.bounds.min === null ? "−∞" : formatNumber(s.bounds.min)}–${s.bounds.max === null ? "∞" : formatNumber(s.bounds.max)} (${s.bounds.source}).`}
          </p>
          <p data-testid="suggest-expected" className={s.withinBudget ? undefined : "error"}>
            Expected on new data: about <strong>{formatNumber(s.expected.alertsPerWeek)}</strong> alerts a week (90 % range{" "}
            {formatNumber(s.expected.low)}–{formatNumber(s.expected.high)}),{" "}
            {s.expected.basis === "later-part"
              ? `measured on the last ${formatNumber(s.history.checkDays)} days, which the fit did not see`
              : "measured on the history itself (too short to hold any back)"}
            {s.withinBudget ? "." : ": over the budget."}
          </p>
          {s.notes.length > 0 && (
            <ul className="muted">
              {s.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
          <div className="suggest-grid">
            {s.hours.map((value, hour) => {
              const current = period.hours.entries[hour];
              const currentText =
                current === null || current === undefined ? "—" : current.kind === "constant" ? formatNumber(current.value) : "expr";
              const same = current?.kind === "constant" && current.value === value;
              return (
                <div key={`h${String(hour)}`} className="suggest-cell">
                  <span className="hour-label">{String(hour).padStart(2, "0")}:00</span>
                  <span className="muted">{currentText}</span>
                  <span className="mono">→ {value === null ? "none" : formatNumber(value)}</span>
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`Accept hour ${hour}`}
                    disabled={value === null || same}
                    onClick={() => value !== null && onChange(setHourEntry(period, hour, { kind: "constant", value }))}
                  >
                    {same ? "✓" : "Accept"}
                  </button>
                </div>
              );
            })}
          </div>
          <div className="suggest-actions">
            <button type="button" className="secondary" onClick={() => onChange(applyHours(period))}>
              Accept all hours
            </button>
            {s.maxSoft !== policy.maxSoft && (
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  onPolicyChange({
                    ...policy,
                    maxSoft: s.maxSoft,
                    periods: policy.periods.map((p, i) => (i === periodIndex ? applyHours(p) : p)),
                  })
                }
              >
                Accept all hours and maxSoft {s.maxSoft}
              </button>
            )}
            {s.periods && (
              <button
                type="button"
                className="secondary"
                onClick={() => s.periods && onPolicyChange({ ...policy, maxSoft: s.maxSoft, periods: s.periods })}
              >
                Use the {s.periods.length - policy.periods.length + 1} proposed periods (
                {s.seasonality === "weekday-weekend" ? "weekdays, weekends" : "one per day"})
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
