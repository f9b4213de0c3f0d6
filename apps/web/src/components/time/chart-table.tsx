"use client";

import { useState } from "react";

/**
 * A chart's text alternative: the table of what it shows, behind a disclosure (rendered only when
 * opened: a 90-day chart is thousands of rows).
 */
export function ChartTable<Row>(props: { caption: string; columns: { label: string; cell: (row: Row) => string }[]; rows: Row[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="chart-table" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Show the data as a table ({props.rows.length} rows)</summary>
      {open && (
        <div className="table-scroll">
          <table className="table">
            <caption className="sr-only">{props.caption}</caption>
            <thead>
              <tr>
                {props.columns.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are a read-only snapshot in order.
                <tr key={i}>
                  {props.columns.map((c) => (
                    <td key={c.label} className="mono">
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
