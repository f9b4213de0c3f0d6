"use client";

import { useMemo } from "react";
import { type Bounds, formatZonedInstant, tickLabel, timeTicks } from "~/lib/time-range";
import { useTimeZone } from "./time-zone";

/** A time chart's X axis over `bounds`: ticks on round times of the shown zone, 24-hour labels. */
export function useTimeAxis(bounds: Bounds, tickCount = 7) {
  const { timeZone } = useTimeZone();
  const { from, to } = bounds;
  const ticks = useMemo(() => timeTicks({ from, to }, tickCount, timeZone), [from, to, tickCount, timeZone]);
  return {
    timeZone,
    ticks,
    domain: [from, to] as [number, number],
    tick: (t: number) => tickLabel(t, to - from, timeZone),
    /** A tooltip's or a table's instant: `23 Nov 2026, 14:05 UTC` or in the browser's zone. */
    instant: (t: number) => formatZonedInstant(t, timeZone),
  };
}
