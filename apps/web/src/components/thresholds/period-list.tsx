"use client";

import type { ThresholdPolicy } from "@tidemark/thresholds";
import { describeRules, emptyPeriod, movePeriod } from "./policy-draft";

/** Periods in precedence (file) order: within each of Bischeck's rules the first match wins. */
export function PeriodList({
  policy,
  selected,
  onSelect,
  onChange,
}: {
  policy: ThresholdPolicy;
  selected: number;
  onSelect: (i: number) => void;
  onChange: (p: ThresholdPolicy) => void;
}) {
  return (
    <div className="period-list">
      <ol aria-label="Periods">
        {policy.periods.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: periods have no identity beyond their position
          <li key={i} className={i === selected ? "selected" : undefined}>
            <button type="button" className="period-pick" aria-current={i === selected} onClick={() => onSelect(i)}>
              <span className="period-rule">{describeRules(p)}</span>
              <span className="muted mono">
                {p.calcMethod} · W {p.warning}% · C {p.critical}%
              </span>
            </button>
            <span className="period-actions">
              <button
                type="button"
                className="icon-button"
                aria-label={`Move period ${i + 1} up`}
                disabled={i === 0}
                onClick={() => {
                  onChange(movePeriod(policy, i, -1));
                  onSelect(i - 1);
                }}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Move period ${i + 1} down`}
                disabled={i === policy.periods.length - 1}
                onClick={() => {
                  onChange(movePeriod(policy, i, 1));
                  onSelect(i + 1);
                }}
              >
                ↓
              </button>
              <button
                type="button"
                className="icon-button danger"
                aria-label={`Remove period ${i + 1}`}
                disabled={policy.periods.length === 1}
                onClick={() => {
                  onChange({ ...policy, periods: policy.periods.filter((_, j) => j !== i) });
                  onSelect(Math.max(0, Math.min(selected, policy.periods.length - 2)));
                }}
              >
                ×
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          onChange({ ...policy, periods: [...policy.periods, emptyPeriod()] });
          onSelect(policy.periods.length);
        }}
      >
        + Add period
      </button>
    </div>
  );
}
