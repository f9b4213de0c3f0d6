"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { STATE_COLORS } from "./colors";
import { alertAt, type LaneLayout, timeTicks } from "./timeline-layout";

export const LANE_HEIGHT = 22;
const AXIS_HEIGHT = 24;
const LABEL_WIDTH = 230;

const tickFormat = (span: number) =>
  new Intl.DateTimeFormat(
    "en-GB",
    span > 2 * 86_400_000 ? { month: "short", day: "numeric", timeZone: "UTC" } : { hour: "2-digit", minute: "2-digit", timeZone: "UTC" },
  );

/**
 * Swimlanes on one canvas (thousands of rectangles are cheap there, thousands of DOM nodes are
 * not): per lane, the state bands from state changes behind the alerts' bars. Click an alert to
 * open it; drag across the lanes to zoom into that span.
 */
export function TimelineCanvas(props: {
  lanes: LaneLayout[];
  width: number;
  window: { from: number; to: number };
  selected: string | null;
  onSelect: (alertId: string) => void;
  onZoom: (from: number, to: number) => void;
}) {
  const { lanes, width, window, selected } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  // The drag lives in a ref for the handlers (events can outrun re-renders) and in state for drawing.
  const dragRef = useRef<{ x0: number; x1: number } | null>(null);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  const height = AXIS_HEIGHT + lanes.length * LANE_HEIGHT;
  const ticks = useMemo(() => timeTicks(window, Math.max(2, Math.floor(width / 110))), [window, width]);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx) return;
    const ratio = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * ratio);
    el.height = Math.round(height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const format = tickFormat(window.to - window.from);
    const x = (t: number) => ((t - window.from) / (window.to - window.from)) * width;

    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    for (const t of ticks) {
      const px = Math.round(x(t)) + 0.5;
      ctx.fillStyle = "#22314a";
      ctx.fillRect(px, AXIS_HEIGHT - 4, 1, height);
      ctx.fillStyle = "#8da2bb";
      ctx.fillText(format.format(t), px + 3, AXIS_HEIGHT / 2);
    }
    const stripes = ctx.createPattern(stripeTile(), "repeat");
    lanes.forEach((lane, i) => {
      const y = AXIS_HEIGHT + i * LANE_HEIGHT;
      if (lane.firstOfHost && i > 0) {
        ctx.fillStyle = "#2c3d5b";
        ctx.fillRect(0, y, width, 1);
      }
      for (const band of lane.bands) {
        ctx.globalAlpha = band.state === "OK" ? 0.12 : band.hard ? 0.35 : 0.18;
        ctx.fillStyle = STATE_COLORS[band.state];
        ctx.fillRect(band.x0, y + 2, Math.max(1, band.x1 - band.x0), LANE_HEIGHT - 4);
      }
      for (const bar of lane.bars) {
        const w = Math.max(2, bar.x1 - bar.x0);
        ctx.globalAlpha = bar.acknowledged ? 0.5 : 1;
        ctx.fillStyle = STATE_COLORS[bar.severity];
        ctx.fillRect(bar.x0, y + 6, w, LANE_HEIGHT - 12);
        if (bar.flapping && stripes) {
          ctx.fillStyle = stripes;
          ctx.fillRect(bar.x0, y + 6, w, LANE_HEIGHT - 12);
        }
        if (bar.alertId === selected) {
          ctx.globalAlpha = 1;
          ctx.strokeStyle = "#ffffff";
          ctx.lineWidth = 2;
          ctx.strokeRect(bar.x0 - 1, y + 4, w + 2, LANE_HEIGHT - 8);
        }
      }
      ctx.globalAlpha = 1;
    });
    if (drag) {
      ctx.fillStyle = "rgba(59,130,246,0.25)";
      ctx.fillRect(Math.min(drag.x0, drag.x1), AXIS_HEIGHT, Math.abs(drag.x1 - drag.x0), height - AXIS_HEIGHT);
    }
  }, [lanes, width, height, window, ticks, selected, drag]);

  function position(e: React.PointerEvent<HTMLCanvasElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  return (
    <div className="tl-grid" style={{ gridTemplateColumns: `${LABEL_WIDTH}px 1fr` }}>
      <div className="tl-labels" style={{ paddingTop: AXIS_HEIGHT }}>
        {lanes.map((lane) => (
          <div
            key={lane.seriesId}
            className={`tl-label${lane.firstOfHost ? " tl-host-start" : ""}`}
            style={{ height: LANE_HEIGHT }}
            title={lane.key}
          >
            <span className="tl-host">{lane.firstOfHost ? lane.host : ""}</span>
            <span className="tl-service">
              {lane.service}
              <span className="muted"> / {lane.item}</span>
            </span>
          </div>
        ))}
      </div>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Alert swimlanes: ${lanes.length} series`}
        data-testid="timeline-canvas"
        style={{ width, height, cursor: drag ? "col-resize" : "crosshair", touchAction: "none" }}
        onPointerDown={(e) => {
          e.preventDefault();
          const p = position(e);
          e.currentTarget.setPointerCapture(e.pointerId);
          dragRef.current = { x0: p.x, x1: p.x };
          setDrag(dragRef.current);
        }}
        onPointerMove={(e) => {
          if (!dragRef.current) return;
          dragRef.current = { ...dragRef.current, x1: position(e).x };
          setDrag(dragRef.current);
        }}
        onPointerUp={(e) => {
          const p = position(e);
          const current = dragRef.current;
          dragRef.current = null;
          setDrag(null);
          if (!current) return;
          if (Math.abs(p.x - current.x0) > 6) {
            const t = (px: number) => window.from + (Math.max(0, Math.min(width, px)) / width) * (window.to - window.from);
            props.onZoom(Math.round(t(Math.min(current.x0, p.x))), Math.round(t(Math.max(current.x0, p.x))));
            return;
          }
          const lane = lanes[Math.floor((p.y - AXIS_HEIGHT) / LANE_HEIGHT)];
          const hit = lane ? alertAt(lane, p.x) : null;
          if (hit) props.onSelect(hit);
        }}
      />
    </div>
  );
}

let tile: HTMLCanvasElement | null = null;

/** Diagonal white stripes over a bar mark a flapping alert. */
function stripeTile(): HTMLCanvasElement {
  if (tile) return tile;
  tile = document.createElement("canvas");
  tile.width = 6;
  tile.height = 6;
  const ctx = tile.getContext("2d");
  if (ctx) {
    ctx.strokeStyle = "rgba(255,255,255,0.55)";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(0, 6);
    ctx.lineTo(6, 0);
    ctx.stroke();
  }
  return tile;
}
