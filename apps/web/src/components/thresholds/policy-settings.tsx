"use client";

import type { Holiday, State, ThresholdPolicy } from "@tidemark/thresholds";
import { useEffect, useState } from "react";
import { NumberField } from "./number-field";

function holidaysToText(holidays: readonly Holiday[]): string {
  return holidays.map((h) => `${h.year}: ${h.days.join(" ")}`).join("\n");
}

/** "2026: 0101 1224 1225" per line → holidays; lines that do not parse are left to the schema to reject. */
function textToHolidays(text: string): Holiday[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [year, rest = ""] = line.split(":");
      return { year: Number(year), days: rest.split(/[\s,]+/).filter(Boolean) };
    });
}

/** Soft/hard count, the state of a null value, the time zone hours are read in, and holidays. */
export function PolicySettings({
  policy,
  onChange,
  errors,
}: {
  policy: ThresholdPolicy;
  onChange: (p: ThresholdPolicy) => void;
  errors: Map<string, string>;
}) {
  const [holidayText, setHolidayText] = useState(holidaysToText(policy.holidays));
  useEffect(() => {
    setHolidayText((current) =>
      JSON.stringify(textToHolidays(current)) === JSON.stringify(policy.holidays) ? current : holidaysToText(policy.holidays),
    );
  }, [policy.holidays]);
  const holidayError = [...errors].find(([k]) => k.startsWith("holidays"))?.[1];
  return (
    <div className="policy-settings">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
      <label className="field">
        <span>Max soft (results before a state is hard)</span>
        <NumberField
          label="Max soft"
          value={policy.maxSoft}
          invalid={errors.has("maxSoft")}
          onChange={(v) => onChange({ ...policy, maxSoft: v ?? Number.NaN })}
        />
        {errors.get("maxSoft") && <span className="field-error">{errors.get("maxSoft")}</span>}
      </label>
      <label className="field">
        <span>State of a null value</span>
        <select
          aria-label="Null state"
          value={policy.nullState}
          onChange={(e) => onChange({ ...policy, nullState: e.target.value as State })}
        >
          {["UNKNOWN", "OK", "WARNING", "CRITICAL"].map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Time zone</span>
        <input aria-label="Time zone" value={policy.timeZone} onChange={(e) => onChange({ ...policy, timeZone: e.target.value })} />
        {errors.get("timeZone") && <span className="field-error">{errors.get("timeZone")}</span>}
      </label>
      <label className="field holidays">
        <span>Holidays (one year a line: 2026: 0101 1225) — no threshold, state OK</span>
        <textarea
          aria-label="Holidays"
          rows={2}
          value={holidayText}
          onChange={(e) => {
            setHolidayText(e.target.value);
            onChange({ ...policy, holidays: textToHolidays(e.target.value) });
          }}
        />
        {holidayError && <span className="field-error">{holidayError}</span>}
      </label>
    </div>
  );
}
