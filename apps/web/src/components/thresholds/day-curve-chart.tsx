"use client";

import { boundaries, type Period } from "@tidemark/thresholds";
import { type KeyboardEvent, type PointerEvent, useMemo, useRef, useState } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "~/lib/format";
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

/** The arrow keys' step: about a hundredth of the axis, a round number (1, 2 or 5 × 10ⁿ). */
export function keyStep(yMax: number): number {
  const raw = yMax / 100;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10;
  return unit * magnitude;
}

const hourText = (h: number) => `${String(h).padStart(2, "0")}:00`;

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
  // `before`: the hour's entry when the drag started, for Escape to put back.
  const [drag, setDrag] = useState<{ hour: number; yMax: number; before: Period } | null>(null);
  const [focusHour, setFocusHour] = useState<number | null>(null);
  const [keyStart, setKeyStart] = useState<Period | null>(null);
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

  const hour = focusHour ?? 0;
  const focused = period.hours.entries[hour] ?? null;
  const valueText =
    focused?.kind === "constant"
      ? `${hourText(hour)}: ${formatNumber(focused.value)}`
      : `${hourText(hour)}: ${focused?.kind === "expression" ? "an expression (edit it in the grid)" : "no threshold"}`;

  /** ← → pick the hour, ↑ ↓ move its constant (Shift: ten steps), Escape puts back what the keys changed. */
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      setFocusHour((hour + (e.key === "ArrowRight" ? 1 : 23)) % 24);
      setKeyStart(null);
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && focused?.kind === "constant" && !readOnly) {
      e.preventDefault();
      const step = keyStep(yMax) * (e.shiftKey ? 10 : 1) * (e.key === "ArrowUp" ? 1 : -1);
      setKeyStart((start) => start ?? period);
      onChange(setHourEntry(period, hour, { kind: "constant", value: Math.max(0, Number((focused.value + step).toPrecision(6))) }));
    } else if (e.key === "Escape" && (drag || keyStart)) {
      e.preventDefault();
      onChange((drag?.before ?? keyStart) as Period);
      setDrag(null);
      setKeyStart(null);
    }
  }

  return (
    <div className="day-curve">
      <div
        ref={wrapper}
        className={readOnly ? undefined : "draggable-chart"}
        role="slider"
        tabIndex={0}
        aria-label="Day curve of the selected period"
        aria-readonly={readOnly || undefined}
        aria-valuemin={0}
        aria-valuemax={yMax}
        aria-valuenow={focused?.kind === "constant" ? focused.value : 0}
        aria-valuetext={valueText}
        aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Shift+ArrowUp Shift+ArrowDown Escape"
        onKeyDown={onKeyDown}
        onFocus={() => setFocusHour((h) => h ?? 0)}
        onBlur={() => {
          setFocusHour(null);
          setKeyStart(null);
        }}
        onPointerDown={(e) => {
          if (readOnly) return;
          const { hour } = locate(e);
          if (period.hours.entries[hour]?.kind !== "constant") return;
          e.currentTarget.setPointerCapture(e.pointerId);
          setDrag({ hour, yMax, before: period });
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
            <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
            <XAxis
              dataKey="hour"
              type="number"
              domain={[0, 24]}
              ticks={[0, 3, 6, 9, 12, 15, 18, 21, 24]}
              tickFormatter={(h) => `${String(h).padStart(2, "0")}:00`}
              stroke="var(--muted)"
              height={X_AXIS_HEIGHT}
            />
            <YAxis domain={[0, yMax]} allowDataOverflow stroke="var(--muted)" width={Y_AXIS_WIDTH} tickFormatter={(v) => formatNumber(v)} />
            {focusHour !== null && <ReferenceLine x={focusHour} stroke="var(--accent)" strokeWidth={2} />}
            <Tooltip
              contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
              labelFormatter={(h) => hourText(Number(h))}
              formatter={(v) => (Array.isArray(v) ? v.map((x) => formatNumber(x)).join(" – ") : formatNumber(Number(v)))}
            />
            <Area
              dataKey="warningBand"
              stroke="none"
              fill="var(--warning)"
              fillOpacity={0.22}
              isAnimationActive={false}
              name="warning band"
              connectNulls={false}
            />
            <Area
              dataKey="warningLowBand"
              stroke="none"
              fill="var(--warning)"
              fillOpacity={0.22}
              isAnimationActive={false}
              name="warning band (low)"
              connectNulls={false}
            />
            <Line
              dataKey="criticalLine"
              stroke="var(--critical)"
              strokeDasharray="5 4"
              dot={false}
              isAnimationActive={false}
              name="critical"
              connectNulls={false}
            />
            <Line
              dataKey="threshold"
              stroke="var(--text)"
              strokeWidth={2}
              dot={readOnly ? false : { r: 4, fill: "var(--accent)", cursor: "ns-resize" }}
              isAnimationActive={false}
              name="threshold"
              connectNulls={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="muted chart-note">
        {readOnly ? "" : "Drag a point up or down to set that hour's constant, or focus the chart and use ← → and ↑ ↓. "}
        {focusHour !== null && <span aria-live="polite">{valueText}. </span>}
        {expressionHours.length > 0 && `Hours ${expressionHours.join(", ")} are expressions: see their values in the preview below.`}
      </p>
    </div>
  );
}
