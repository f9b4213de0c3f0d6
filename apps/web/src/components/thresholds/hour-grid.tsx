"use client";

import type { HourEntry, Period } from "@tidemark/thresholds";
import { ExpressionInput } from "./expression-input";
import { NumberField } from "./number-field";
import { setHourEntry } from "./policy-draft";

type Kind = "empty" | "constant" | "expression";

const kindOf = (e: HourEntry): Kind => (e === null ? "empty" : e.kind);

const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

function convert(entry: HourEntry, to: Kind): HourEntry {
  if (to === "empty") return null;
  if (to === "constant") return { kind: "constant", value: entry?.kind === "constant" ? entry.value : 0 };
  // A number is not the start of an expression: the field starts empty ("22" + "av" made "22av").
  return { kind: "expression", source: entry?.kind === "expression" ? entry.source : "" };
}

/**
 * The 24 hour entries of one period: each a constant, an expression or empty (no threshold that
 * hour), with Bischeck's per-hour warning/critical override.
 */
export function HourGrid({
  period,
  onChange,
  errors,
  seriesProblem,
}: {
  period: Period;
  onChange: (p: Period) => void;
  errors: Map<string, string>;
  /** What is wrong with the series an expression reads (unknown ones), or null. */
  seriesProblem: (source: string) => string | null;
}) {
  return (
    <fieldset className="hour-grid" aria-label="Hour entries">
      {period.hours.entries.map((entry, hour) => {
        const kind = kindOf(entry);
        const levels = period.hours.levels[hour] ?? null;
        const error =
          errors.get(`hours.entries.${hour}`) ?? errors.get(`hours.entries.${hour}.value`) ?? errors.get(`hours.entries.${hour}.source`);
        const setLevels = (next: Period["hours"]["levels"][number]) =>
          onChange({ ...period, hours: { ...period.hours, levels: period.hours.levels.map((l, h) => (h === hour ? next : l)) } });
        return (
          <div key={hourLabel(hour)} className={`hour-cell hour-${kind}`} data-hour={hour}>
            <div className="hour-head">
              <span className="hour-label">{hourLabel(hour)}</span>
              <select
                aria-label={`Hour ${hour} kind`}
                value={kind}
                onChange={(e) => onChange(setHourEntry(period, hour, convert(entry, e.target.value as Kind)))}
              >
                <option value="empty">—</option>
                <option value="constant">value</option>
                <option value="expression">expr</option>
              </select>
              <button
                type="button"
                className="link-button"
                title="Override warning and critical for this hour"
                aria-pressed={levels !== null}
                onClick={() => setLevels(levels ? null : { warning: period.warning, critical: period.critical })}
              >
                W/C
              </button>
            </div>
            {entry?.kind === "constant" && (
              <NumberField
                label={`Hour ${hour} threshold`}
                value={entry.value}
                invalid={error !== undefined}
                onChange={(v) => v !== null && onChange(setHourEntry(period, hour, { kind: "constant", value: v }))}
              />
            )}
            {entry?.kind === "expression" && (
              <ExpressionInput
                label={`Hour ${hour} expression`}
                value={entry.source}
                seriesProblem={seriesProblem(entry.source)}
                onChange={(source) => onChange(setHourEntry(period, hour, { kind: "expression", source }))}
              />
            )}
            {kind === "empty" && <span className="muted hour-na">no threshold</span>}
            {levels && (
              <div className="hour-levels">
                {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
                <label>
                  W%
                  <NumberField
                    label={`Hour ${hour} warning`}
                    value={levels.warning}
                    onChange={(v) => v !== null && setLevels({ ...levels, warning: v })}
                  />
                </label>
                {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
                <label>
                  C%
                  <NumberField
                    label={`Hour ${hour} critical`}
                    value={levels.critical}
                    onChange={(v) => v !== null && setLevels({ ...levels, critical: v })}
                  />
                </label>
              </div>
            )}
            {error && <p className="field-error">{error}</p>}
          </div>
        );
      })}
    </fieldset>
  );
}
