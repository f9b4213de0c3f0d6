"use client";

import type { Bounds, TimeRange } from "~/lib/time-range";
import { TimeRangePicker } from "../time/time-range-picker";
import type { TimelineView, Tristate } from "./url-state";

const SEVERITIES = ["CRITICAL", "WARNING", "UNKNOWN"] as const;

function TristateSelect(props: { label: string; value: Tristate; onChange: (v: Tristate) => void; yes: string; no: string }) {
  return (
    <label className="tl-field">
      <span>{props.label}</span>
      <select
        aria-label={props.label}
        value={props.value === null ? "" : props.value ? "yes" : "no"}
        onChange={(e) => props.onChange(e.target.value === "" ? null : e.target.value === "yes")}
      >
        <option value="">any</option>
        <option value="yes">{props.yes}</option>
        <option value="no">{props.no}</option>
      </select>
    </label>
  );
}

/** The time range picker and the filters; every change goes through `onChange` into the URL. */
export function TimelineControls(props: {
  view: TimelineView;
  onChange: (patch: Partial<TimelineView>) => void;
  /** The window's instants (a relative window resolved). */
  bounds: Bounds;
  /** A new window: a new history entry, unlike a filter change. */
  onRange: (range: TimeRange) => void;
}) {
  const { view, onChange } = props;
  return (
    <div className="tl-controls">
      <TimeRangePicker range={view.window} bounds={props.bounds} onChange={props.onRange} />
      <fieldset className="tl-filters tl-fieldset" aria-label="Filters">
        <fieldset className="tl-severities">
          <legend className="sr-only">Severity</legend>
          {SEVERITIES.map((s) => (
            <label key={s} className={`tl-chip tl-chip-${s.toLowerCase()}`}>
              <input
                type="checkbox"
                checked={view.severities.includes(s)}
                onChange={(e) =>
                  onChange({ severities: e.target.checked ? [...view.severities, s] : view.severities.filter((x) => x !== s) })
                }
              />
              {s}
            </label>
          ))}
        </fieldset>
        <label className="tl-field">
          <span>State</span>
          <select aria-label="State" value={view.status} onChange={(e) => onChange({ status: e.target.value as TimelineView["status"] })}>
            <option value="any">open or closed</option>
            <option value="open">open</option>
            <option value="closed">closed</option>
          </select>
        </label>
        <label className="tl-field">
          <span>Host</span>
          <input
            aria-label="Host"
            placeholder="web* or part of a name"
            value={view.host}
            onChange={(e) => onChange({ host: e.target.value })}
          />
        </label>
        <label className="tl-field">
          <span>Service</span>
          <input aria-label="Service" placeholder="any" value={view.service} onChange={(e) => onChange({ service: e.target.value })} />
        </label>
        <TristateSelect
          label="Acknowledged"
          value={view.acknowledged}
          onChange={(acknowledged) => onChange({ acknowledged })}
          yes="acknowledged"
          no="not acknowledged"
        />
        <TristateSelect label="Flapping" value={view.flapping} onChange={(flapping) => onChange({ flapping })} yes="flapped" no="steady" />
      </fieldset>
    </div>
  );
}
