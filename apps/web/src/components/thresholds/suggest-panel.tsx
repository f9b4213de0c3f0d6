"use client";

import { useMutation } from "@tanstack/react-query";
import type { Period, ThresholdPolicy } from "@tidemark/thresholds";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { NumberField } from "./number-field";
import { setHourEntry } from "./policy-draft";

/**
 * Suggested thresholds for the selected period from the hourly aggregate: a percentile per hour
 * over the days the period applies to, widened to fit an alert budget; accepted hour by hour.
 */
export function SuggestPanel({
  itemId,
  policy,
  periodIndex,
  onChange,
}: {
  itemId: string;
  policy: ThresholdPolicy | null;
  periodIndex: number;
  onChange: (p: Period) => void;
}) {
  const trpc = useTRPC();
  const suggest = useMutation(trpc.thresholds.suggest.mutationOptions());
  const [percentile, setPercentile] = useState<number | null>(95);
  const [budget, setBudget] = useState<number | null>(1);
  const [weeks, setWeeks] = useState<number | null>(4);
  const period = policy?.periods[periodIndex];
  const s = suggest.data;
  const ready = policy !== null && percentile !== null && budget !== null && weeks !== null;

  return (
    <section className="panel" aria-label="Suggested thresholds">
      <div className="panel-head">
        <h2>Suggested thresholds for this period</h2>
        <form
          className="suggest-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) suggest.mutate({ itemId, policy, periodIndex, percentile, alertsPerWeek: budget, weeks });
          }}
        >
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            keep <NumberField className="narrow" label="Percentile" value={percentile} onChange={setPercentile} /> % of hours OK,
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            at most <NumberField className="narrow" label="Alerts a week" value={budget} onChange={setBudget} /> alerts a week
          </label>
          {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
          <label>
            over <NumberField className="narrow" label="Weeks of history" value={weeks} onChange={setWeeks} /> weeks
          </label>
          <button type="submit" disabled={!ready || suggest.isPending}>
            {suggest.isPending ? "Computing…" : "Suggest"}
          </button>
        </form>
      </div>
      {policy === null && <p className="muted">Fix the errors in the editor to get suggestions.</p>}
      {suggest.isError && <p className="error">{suggest.error.message}</p>}
      {s && period && (
        <>
          <p className="muted">
            From {s.buckets} hourly buckets:{" "}
            {period.calcMethod === "<"
              ? `the ${percentile}th percentile of each hour's peaks`
              : period.calcMethod === ">"
                ? `the ${100 - (percentile ?? 0)}th percentile of each hour's troughs`
                : "the median of each hour's means"}
            {period.calcMethod === "=" ? "" : `, ${period.calcMethod === "<" ? "plus" : "minus"} a ${Math.round(s.margin * 100)} % margin`}:
            about {Math.round(s.alertsPerWeek * 10) / 10} alerts a week over this history
            {s.withinBudget ? "." : ", over the budget even with the widest margin tried."}
          </p>
          <div className="suggest-grid">
            {s.hours.map((value, hour) => {
              const current = period.hours.entries[hour];
              const currentText =
                current === null || current === undefined ? "—" : current.kind === "constant" ? String(current.value) : "expr";
              const same = current?.kind === "constant" && current.value === value;
              return (
                <div key={`h${String(hour)}`} className="suggest-cell">
                  <span className="hour-label">{String(hour).padStart(2, "0")}:00</span>
                  <span className="muted">{currentText}</span>
                  <span className="mono">→ {value ?? "no data"}</span>
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
          <button
            type="button"
            className="secondary"
            onClick={() =>
              onChange(
                s.hours.reduce<Period>(
                  (p, value, hour) => (value === null ? p : setHourEntry(p, hour, { kind: "constant", value })),
                  period,
                ),
              )
            }
          >
            Accept all hours
          </button>
        </>
      )}
    </section>
  );
}
