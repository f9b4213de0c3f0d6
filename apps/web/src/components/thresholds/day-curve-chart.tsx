"use client";

import { boundaries, type Period } from "@tidemark/thresholds";
import { type PointerEvent, useMemo, useRef, useState } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { setHourEntry } from "./policy-draft";

const HEIGHT = 260;
const MARGIN = { top: 12, right: 16, bottom: 4, left: 4 };
const Y_AXIS_WIDTH = 64;
const X_AXIS_HEIGHT = 30;

interface HourPoint {
  hour: number;
  threshold: number | null;
  warningBand: [number, number] | null;
  criticalLine: number | null;
  warningLowBand: [number, number] | null;
  expression: boolean;
}

/** T[h] with its bands at each hour 0..24 (24 = the next midnight, read from hour 0 as Bischeck does). */
function hourPoints(period: Period): HourPoint[] {
  return Array.from({ length: 25 }, (_, hour) => {
    const h = hour % 24;
    const entry = period.hours.entries[h] ?? null;
    const levels = period.hours.levels[h] ?? null;
    if (entry?.kind !== "constant")
      return {
        hour,
        threshold: null,
        warningBand: null,
        criticalLine: null,
        warningLowBand: null,
        expression: entry?.kind === "expression",
      };
    const b = boundaries(period.calcMethod, entry.value, levels?.warning ?? period.warning, levels?.critical ?? period.critical);
    const band = (a: number, c: number): [number, number] => [Math.min(a, c), Math.max(a, c)];
    return {
      hour,
      threshold: entry.value,
      warningBand: band(b.warning, b.critical),
      criticalLine: b.critical,
      warningLowBand: b.warningLow !== null && b.criticalLow !== null ? band(b.warningLow, b.criticalLow) : null,
      expression: false,
    };
  });
}

function niceCeiling(v: number): number {
  if (v <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(v));
  return Math.ceil(v / magnitude) * magnitude;
}

/**
 * The day's curve of one period: threshold, warning band and critical edge, hour by hour (the
 * engine interpolates linearly between hours, as drawn). Constant hours can be dragged.
 */
export function DayCurveChart({ period, onChange, readOnly }: { period: Period; onChange: (p: Period) => void; readOnly?: boolean }) {
  const data = useMemo(() => hourPoints(period), [period]);
  const wrapper = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ hour: number; yMax: number } | null>(null);
  const highest = Math.max(0, ...data.flatMap((d) => [d.threshold ?? 0, ...(d.warningBand ?? []), d.criticalLine ?? 0]));
  const yMax = drag?.yMax ?? niceCeiling(highest * 1.15);
  const expressionHours = data.filter((d) => d.expression && d.hour < 24).map((d) => d.hour);

  function locate(e: PointerEvent<HTMLDivElement>) {
    const rect = (wrapper.current as HTMLDivElement).getBoundingClientRect();
    const plotLeft = MARGIN.left + Y_AXIS_WIDTH;
    const plotWidth = rect.width - plotLeft - MARGIN.right;
    const plotTop = MARGIN.top;
    const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom - X_AXIS_HEIGHT;
    const hour = Math.round(((e.clientX - rect.left - plotLeft) / plotWidth) * 24);
    const fraction = 1 - (e.clientY - rect.top - plotTop) / plotHeight;
    return { hour: Math.max(0, Math.min(24, hour)) % 24, value: Math.max(0, fraction * yMax) };
  }

  function setValue(hour: number, value: number) {
    const rounded = Number(value.toPrecision(3));
    onChange(setHourEntry(period, hour, { kind: "constant", value: rounded }));
  }

  return (
    <div className="day-curve">
      <div
        ref={wrapper}
        className={readOnly ? undefined : "draggable-chart"}
        role="img"
        aria-label="Day curve of the selected period"
        onPointerDown={(e) => {
          if (readOnly) return;
          const { hour } = locate(e);
          if (period.hours.entries[hour]?.kind !== "constant") return;
          e.currentTarget.setPointerCapture(e.pointerId);
          setDrag({ hour, yMax });
        }}
        onPointerMove={(e) => {
          if (!drag) return;
          setValue(drag.hour, locate(e).value);
        }}
        onPointerUp={() => setDrag(null)}
        onPointerCancel={() => setDrag(null)}
      >
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <ComposedChart data={data} margin={MARGIN}>
            <CartesianGrid stroke="#233042" strokeDasharray="3 3" />
            <XAxis
              dataKey="hour"
              type="number"
              domain={[0, 24]}
              ticks={[0, 3, 6, 9, 12, 15, 18, 21, 24]}
              tickFormatter={(h) => `${String(h).padStart(2, "0")}:00`}
              stroke="#8da2bb"
              height={X_AXIS_HEIGHT}
            />
            <YAxis domain={[0, yMax]} allowDataOverflow stroke="#8da2bb" width={Y_AXIS_WIDTH} />
            <Tooltip
              contentStyle={{ background: "#111a27", border: "1px solid #2b3a50" }}
              labelFormatter={(h) => `${String(h).padStart(2, "0")}:00`}
            />
            <Area
              dataKey="warningBand"
              stroke="none"
              fill="#f59e0b"
              fillOpacity={0.22}
              isAnimationActive={false}
              name="warning band"
              connectNulls={false}
            />
            <Area
              dataKey="warningLowBand"
              stroke="none"
              fill="#f59e0b"
              fillOpacity={0.22}
              isAnimationActive={false}
              name="warning band (low)"
              connectNulls={false}
            />
            <Line
              dataKey="criticalLine"
              stroke="#ef4444"
              strokeDasharray="5 4"
              dot={false}
              isAnimationActive={false}
              name="critical"
              connectNulls={false}
            />
            <Line
              dataKey="threshold"
              stroke="#e5edf7"
              strokeWidth={2}
              dot={readOnly ? false : { r: 4, fill: "#3b82f6", cursor: "ns-resize" }}
              isAnimationActive={false}
              name="threshold"
              connectNulls={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="muted chart-note">
        {readOnly ? "" : "Drag a point up or down to set that hour's constant. "}
        {expressionHours.length > 0 && `Hours ${expressionHours.join(", ")} are expressions: see their values in the preview below.`}
      </p>
    </div>
  );
}
