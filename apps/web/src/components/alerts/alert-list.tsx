"use client";

import { useEffect, useState } from "react";
import { StateBadge } from "../state-badge";
import { useFormatInstant } from "../time/time-zone";
import { formatDuration } from "./format";
import { ALERT_LIST_RENDERED_MARK } from "./render-marks";
import type { LayoutInput } from "./timeline-layout";

const PAGE = 100;

/** The alerts of the window as rows, newest first: the accessible way through what the canvas draws. */
export function AlertList(props: { data: LayoutInput; now: number; selected: string | null; onSelect: (id: string) => void }) {
  const formatTime = useFormatInstant();
  const [shown, setShown] = useState(PAGE);
  useEffect(() => {
    if (performance.getEntriesByName(ALERT_LIST_RENDERED_MARK, "mark").length === 0) performance.mark(ALERT_LIST_RENDERED_MARK);
  }, []);
  const keys = new Map(props.data.lanes.map((l) => [l.seriesId, l.key]));
  const rows = props.data.alerts.slice(0, shown);
  return (
    <section className="panel" aria-label="Alerts in the window">
      <div className="panel-head">
        <h2>Alerts ({props.data.alerts.length})</h2>
      </div>
      <table className="table">
        <thead>
          <tr>
            <th>Series</th>
            <th>Severity</th>
            <th>Opened</th>
            <th>Duration</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id} className={a.id === props.selected ? "selected" : undefined} onClick={() => props.onSelect(a.id)}>
              <td className="mono">
                <button type="button" className="link-button tl-row-link" onClick={() => props.onSelect(a.id)}>
                  {keys.get(a.seriesId)}
                </button>
              </td>
              <td>
                <StateBadge state={a.severity} />
                {a.peakSeverity !== a.severity && <span className="muted"> peak {a.peakSeverity}</span>}
              </td>
              <td className="mono">{formatTime(a.openedAt)}</td>
              <td>{formatDuration((a.closedAt ?? props.now) - a.openedAt)}</td>
              <td>
                {a.closedAt === null ? <span className="tl-tag tl-tag-open">open</span> : <span className="tl-tag">closed</span>}
                {a.acknowledged && <span className="tl-tag">acknowledged</span>}
                {a.flapping && <span className="tl-tag tl-tag-flapping">flapping</span>}
              </td>
            </tr>
          ))}
          {props.data.alerts.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                No alerts in this window match the filters.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {props.data.alerts.length > shown && (
        <div className="pager">
          <button type="button" onClick={() => setShown((n) => n + PAGE * 5)}>
            Show more ({props.data.alerts.length - shown} left)
          </button>
        </div>
      )}
    </section>
  );
}
