"use client";

import { useRef, useState } from "react";
import type { MouseHandlerDataParam } from "recharts";
import { selectionRange, type TimeRange } from "~/lib/time-range";

const instant = (state: MouseHandlerDataParam | undefined) => {
  const x = Number(state?.activeLabel);
  return state?.activeLabel !== undefined && Number.isFinite(x) ? x : null;
};

/**
 * Drag across a Recharts time chart to zoom into that span: spread `handlers` on the chart and
 * draw `selection` as a ReferenceArea while the drag lasts. A click (under a minute) is not a zoom.
 */
export function useDragZoom(onZoom: (range: TimeRange) => void) {
  const start = useRef<number | null>(null);
  const [selection, setSelection] = useState<{ x1: number; x2: number } | null>(null);
  const handlers = {
    onMouseDown: (state: MouseHandlerDataParam) => {
      start.current = instant(state);
      if (start.current !== null) setSelection({ x1: start.current, x2: start.current });
    },
    onMouseMove: (state: MouseHandlerDataParam) => {
      const x = instant(state);
      if (start.current !== null && x !== null) setSelection({ x1: start.current, x2: x });
    },
    onMouseUp: () => {
      const range = selection ? selectionRange(selection.x1, selection.x2) : null;
      start.current = null;
      setSelection(null);
      if (range) onZoom(range);
    },
    onMouseLeave: () => {
      start.current = null;
      setSelection(null);
    },
  };
  return { handlers, selection };
}
