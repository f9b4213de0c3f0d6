"use client";

import { useQuery } from "@tanstack/react-query";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import { ChartTable } from "./time/chart-table";
import { TimeRangePicker } from "./time/time-range-picker";
import { useDragZoom } from "./time/use-drag-zoom";
import { useTimeAxis } from "./time/use-time-axis";
import { useUrlRange } from "./time/use-url-range";

const tooltipNumber = (v: unknown) => (Array.isArray(v) ? v.map((x) => formatNumber(x)).join(" – ") : formatNumber(Number(v)));

/** One series' history on the overview: mean with its min–max band, over the page's time range. */
export function SeriesChart({ seriesId }: { seriesId: number }) {
  const trpc = useTRPC();
  const { range, bounds, setRange } = useUrlRange("7d");
  const axis = useTimeAxis(bounds);
  const zoom = useDragZoom(setRange);
  const query = useQuery(trpc.dashboard.series.queryOptions({ seriesId, from: new Date(bounds.from), to: new Date(bounds.to) }));
  const data = query.data?.points.map((p) => ({
    ts: p.ts,
    avg: p.avg,
    min: p.min,
    max: p.max,
    band: [p.min, p.max] as [number | null, number | null],
  }));

  return (
    <section className="panel" aria-label="Series history">
      <div className="panel-head">
        <h2>History</h2>
        <TimeRangePicker range={range} bounds={bounds} onChange={setRange} />
      </div>
      <div className="chart zoomable">
        {query.isError && <p className="error">{query.error.message}</p>}
        {data && data.length === 0 && <p className="muted">No points in this window.</p>}
        {data && data.length > 0 && (
          <>
            <ResponsiveContainer width="100%" height={280}>
              <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} {...zoom.handlers}>
                <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
                <XAxis
                  dataKey="ts"
                  type="number"
                  scale="time"
                  domain={axis.domain}
                  ticks={axis.ticks}
                  tickFormatter={axis.tick}
                  stroke="var(--muted)"
                  allowDataOverflow
                />
                <YAxis stroke="var(--muted)" width={60} tickFormatter={(v) => formatNumber(v)} />
                <Tooltip
                  labelFormatter={(v) => axis.instant(Number(v))}
                  formatter={tooltipNumber}
                  contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
                />
                <Area dataKey="band" stroke="none" fill="var(--accent)" fillOpacity={0.18} isAnimationActive={false} name="min–max" />
                <Line
                  dataKey="avg"
                  stroke="var(--series)"
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                  name={`value (${query.data?.resolution})`}
                />
                {zoom.selection && <ReferenceArea x1={zoom.selection.x1} x2={zoom.selection.x2} fill="var(--accent)" fillOpacity={0.2} />}
              </ComposedChart>
            </ResponsiveContainer>
            <p className="muted chart-note">Drag across the chart to zoom in.</p>
            <ChartTable
              caption="Series history"
              rows={data}
              columns={[
                { label: "Time", cell: (r) => axis.instant(r.ts) },
                { label: "Mean", cell: (r) => formatNumber(r.avg) },
                { label: "Min", cell: (r) => formatNumber(r.min) },
                { label: "Max", cell: (r) => formatNumber(r.max) },
              ]}
            />
          </>
        )}
      </div>
    </section>
  );
}
