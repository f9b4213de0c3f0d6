"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "~/trpc/react";

const WINDOWS = { "24h": 1, "7d": 7, "14d": 14 } as const;
type WindowKey = keyof typeof WINDOWS;

const timeFormat = new Intl.DateTimeFormat("en-GB", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

export function SeriesChart({ seriesId }: { seriesId: number }) {
  const trpc = useTRPC();
  const [windowKey, setWindowKey] = useState<WindowKey>("7d");
  // Round to the minute so the query key is stable across renders.
  const to = useMemo(() => new Date(Math.ceil(Date.now() / 60_000) * 60_000), []);
  const from = new Date(to.getTime() - WINDOWS[windowKey] * 86_400_000);
  const query = useQuery(trpc.dashboard.series.queryOptions({ seriesId, from, to }));
  const data = query.data?.points.map((p) => ({ ts: p.ts, avg: p.avg, band: [p.min, p.max] as [number | null, number | null] }));

  return (
    <section className="panel" aria-label="Series history">
      <div className="panel-head">
        <h2>History</h2>
        <div className="segmented" role="group" aria-label="Window">
          {(Object.keys(WINDOWS) as WindowKey[]).map((k) => (
            <button key={k} type="button" aria-pressed={k === windowKey} onClick={() => setWindowKey(k)}>
              {k}
            </button>
          ))}
        </div>
      </div>
      <div className="chart">
        {query.isError && <p className="error">{query.error.message}</p>}
        {data && data.length === 0 && <p className="muted">No points in this window.</p>}
        {data && data.length > 0 && (
          <ResponsiveContainer width="100%" height={280}>
            <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid stroke="#233042" strokeDasharray="3 3" />
              <XAxis dataKey="ts" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={(v) => timeFormat.format(v)} stroke="#8da2bb" minTickGap={40} />
              <YAxis stroke="#8da2bb" width={60} />
              <Tooltip labelFormatter={(v) => `${timeFormat.format(Number(v))} UTC`} contentStyle={{ background: "#111a27", border: "1px solid #2b3a50" }} />
              <Area dataKey="band" stroke="none" fill="#3b82f6" fillOpacity={0.18} isAnimationActive={false} name="min–max" />
              <Line dataKey="avg" stroke="#60a5fa" dot={false} strokeWidth={1.5} isAnimationActive={false} name={`value (${query.data?.resolution})`} />
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
}
