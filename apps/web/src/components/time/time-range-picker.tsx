"use client";

import { useEffect, useId, useRef, useState } from "react";
import {
  type Bounds,
  describeRange,
  PRESET_KEYS,
  PRESET_LABELS,
  panRange,
  parseInputText,
  type TimeRange,
  toInputText,
  zoomRange,
} from "~/lib/time-range";
import { browserTimeZone, setZoneChoice, useTimeZone, type ZoneChoice } from "./time-zone";
import "./time.css";

/**
 * Grafana's range picker: a button saying the range, opening the presets (the same on every page)
 * and From/To in 24-hour wall-clock time of the shown zone (the organisation's unless the user
 * chose the browser's or UTC); beside it earlier / zoom out / later.
 * The inputs start from the range on screen each time the picker opens.
 */
export function TimeRangePicker({ range, bounds, onChange }: { range: TimeRange; bounds: Bounds; onChange: (next: TimeRange) => void }) {
  const { timeZone, choice, organizationTimeZone } = useTimeZone();
  const [open, setOpen] = useState(false);
  const [fromText, setFromText] = useState("");
  const [toText, setToText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, [open]);

  function toggle() {
    if (!open) {
      setFromText(toInputText(bounds.from, timeZone));
      setToText(toInputText(bounds.to, timeZone));
      setProblem(null);
    }
    setOpen(!open);
  }

  function choose(next: TimeRange) {
    setOpen(false);
    onChange(next);
  }

  function apply(e: React.FormEvent) {
    e.preventDefault();
    const from = parseInputText(fromText, timeZone);
    const to = parseInputText(toText, timeZone);
    if (from === null || to === null) return setProblem("Write times as 2026-11-23 14:05.");
    if (to - from < 60_000) return setProblem("From must be at least a minute before To.");
    choose({ kind: "absolute", from, to });
  }

  return (
    <div className="time-picker" ref={root}>
      <fieldset className="segmented time-picker-controls" aria-label="Time range">
        <button type="button" aria-label="Earlier" title="Earlier" onClick={() => onChange(panRange(bounds, -0.5))}>
          ‹
        </button>
        <button type="button" className="time-picker-button" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
          <span aria-hidden="true">◷</span>
          <span className="sr-only">Time range: </span>
          {describeRange(range, timeZone)}
          <span className="time-picker-zone">{timeZone}</span>
        </button>
        <button type="button" aria-label="Later" title="Later" onClick={() => onChange(panRange(bounds, 0.5))}>
          ›
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out (×2)" onClick={() => onChange(zoomRange(bounds, 2))}>
          −
        </button>
      </fieldset>
      {open && (
        <div className="time-picker-panel" id={panelId} role="dialog" aria-label="Choose a time range">
          <form className="time-picker-absolute" onSubmit={apply}>
            <h3>Absolute range</h3>
            <label>
              From
              <input value={fromText} onChange={(e) => setFromText(e.target.value)} placeholder="2026-11-23 14:05" spellCheck={false} />
            </label>
            <label>
              To
              <input value={toText} onChange={(e) => setToText(e.target.value)} placeholder="2026-11-24 09:30" spellCheck={false} />
            </label>
            {problem && (
              <p className="error" role="alert">
                {problem}
              </p>
            )}
            <button type="submit">Apply range</button>
            <label>
              Times in
              <select value={choice} onChange={(e) => setZoneChoice(e.target.value as ZoneChoice)}>
                <option value="org">the organisation's zone ({organizationTimeZone})</option>
                <option value="browser">this browser's zone ({browserTimeZone()})</option>
                <option value="utc">UTC</option>
              </select>
            </label>
          </form>
          <div className="time-picker-presets">
            <h3>Relative</h3>
            <ul>
              {PRESET_KEYS.map((preset) => (
                <li key={preset}>
                  <button
                    type="button"
                    aria-pressed={range.kind === "relative" && range.preset === preset}
                    onClick={() => choose({ kind: "relative", preset })}
                  >
                    {PRESET_LABELS[preset]}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </div>
  );
}
