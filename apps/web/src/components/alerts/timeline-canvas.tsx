"use client";

import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { formatInstant, tickLabel, timeTicks } from "~/lib/time-range";
import { STATE_COLORS } from "./colors";
import { TIMELINE_DRAWN_MARK } from "./render-marks";
import { alertAt, type LaneLayout } from "./timeline-layout";

export const LANE_HEIGHT = 22;
const AXIS_HEIGHT = 24;
/** The lane labels' column: narrower on a phone, so that the lanes keep most of the width. */
export const labelWidth = (lanesWidth: number) => (lanesWidth < 640 ? 120 : 230);

/** The lanes' viewport: the scroll container's content height (it scrolls past this). */
export const TIMELINE_VIEW_HEIGHT = 560;

/**
 * Swimlanes on one canvas (thousands of rectangles are cheap there, thousands of DOM nodes are
 * not): per lane, the state bands from state changes behind the alerts' bars. Click an alert to
 * open it; drag across the lanes to zoom into that span.
 * The canvas is only as tall as the viewport and stays in it while the lanes scroll past, drawing
 * the lanes in view: a canvas as tall as 250 lanes is a 25 MB bitmap to allocate, clear and
 * composite on every draw, and past about 1 500 lanes it exceeds what a browser allocates at all.
 */
export function TimelineCanvas(props: {
  lanes: LaneLayout[];
  width: number;
  window: { from: number; to: number };
  /** The zone the axis shows round times of. */
  timeZone: string;
  selected: string | null;
  /** The lane labels' column, in px. */
  labelWidth: number;
  /** The element the lanes scroll in. */
  scroller: RefObject<HTMLElement | null>;
  onSelect: (alertId: string) => void;
  onZoom: (from: number, to: number) => void;
}) {
  const { lanes, width, window, timeZone, selected, scroller } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  // The drag lives in a ref for the handlers (events can outrun re-renders) and in state for drawing.
  const dragRef = useRef<{ x0: number; x1: number } | null>(null);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  // What is under the pointer when not dragging: the lane, the time and the alert there, if any.
  const [hover, setHover] = useState<{ x: number; y: number; lines: string[] } | null>(null);
  const height = AXIS_HEIGHT + lanes.length * LANE_HEIGHT;
  const viewHeight = Math.min(height, TIMELINE_VIEW_HEIGHT);
  const ticks = useMemo(() => timeTicks(window, Math.max(2, Math.floor(width / 110)), timeZone), [window, width, timeZone]);
  const labelled = useLanesInView(scroller, lanes.length, viewHeight);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx) return;
    const ratio = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * ratio);
    el.height = Math.round(viewHeight * ratio);
    const x = (t: number) => ((t - window.from) / (window.to - window.from)) * width;
    // The theme's colours, read once per draw setup: a canvas cannot use CSS variables.
    const style = getComputedStyle(el);
    const colors = { grid: style.getPropertyValue("--border").trim(), muted: style.getPropertyValue("--muted").trim() };
    let frame = 0;
    const draw = () => {
      frame = 0;
      const top = scroller.current?.scrollTop ?? 0;
      // Lanes are drawn where they are in the scrolled content, shifted up by the scroll.
      ctx.setTransform(ratio, 0, 0, ratio, 0, -top * ratio);
      ctx.clearRect(0, top, width, viewHeight);
      ctx.font = "11px system-ui, sans-serif";
      ctx.textBaseline = "middle";
      for (const t of ticks) {
        const px = Math.round(x(t)) + 0.5;
        ctx.fillStyle = colors.grid;
        ctx.fillRect(px, Math.max(top, AXIS_HEIGHT - 4), 1, viewHeight);
        ctx.fillStyle = colors.muted;
        ctx.fillText(tickLabel(t, window.to - window.from, timeZone), px + 3, AXIS_HEIGHT / 2);
      }
      const first = Math.max(0, Math.floor((top - AXIS_HEIGHT) / LANE_HEIGHT));
      const end = Math.min(lanes.length, Math.ceil((top + viewHeight - AXIS_HEIGHT) / LANE_HEIGHT));
      drawLanes(ctx, lanes, first, end, width, selected);
      if (lanes.length > 0 && performance.getEntriesByName(TIMELINE_DRAWN_MARK, "mark").length === 0) performance.mark(TIMELINE_DRAWN_MARK);
    };
    draw();
    const scrolling = scroller.current;
    const onScroll = () => {
      frame ||= requestAnimationFrame(draw);
    };
    scrolling?.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      scrolling?.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, [lanes, width, viewHeight, window, timeZone, ticks, selected, scroller]);

  /** Where the pointer is in the lanes' content (the canvas shows the scrolled part of it). */
  function position(e: React.PointerEvent<HTMLCanvasElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top + (scroller.current?.scrollTop ?? 0) };
  }

  return (
    <div className="tl-grid" style={{ gridTemplateColumns: `${props.labelWidth}px 1fr` }}>
      <div className="tl-labels" style={{ paddingTop: AXIS_HEIGHT + labelled.first * LANE_HEIGHT }}>
        {lanes.slice(labelled.first, labelled.end).map((lane) => (
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
      <div className="tl-canvas" style={{ height }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Alert swimlanes: ${lanes.length} series`}
          data-testid="timeline-canvas"
          style={{ width, height: viewHeight, cursor: drag ? "col-resize" : "crosshair", touchAction: "none" }}
          onPointerDown={(e) => {
            e.preventDefault();
            const p = position(e);
            e.currentTarget.setPointerCapture(e.pointerId);
            dragRef.current = { x0: p.x, x1: p.x };
            setDrag(dragRef.current);
          }}
          onPointerMove={(e) => {
            if (!dragRef.current) {
              const p = position(e);
              const lane = lanes[Math.floor((p.y - AXIS_HEIGHT) / LANE_HEIGHT)];
              if (!lane || p.y < AXIS_HEIGHT) return setHover(null);
              const at = window.from + (p.x / width) * (window.to - window.from);
              const alertId = alertAt(lane, p.x);
              const bar = alertId ? lane.bars.find((b) => b.alertId === alertId) : undefined;
              const lines = [lane.key, formatInstant(at, timeZone)];
              if (bar)
                lines.push(
                  `${bar.severity} alert${bar.acknowledged ? ", acknowledged" : ""}${bar.flapping ? ", flapping" : ""} — click to open`,
                );
              return setHover({ x: p.x, y: p.y, lines });
            }
            setHover(null);
            dragRef.current = { ...dragRef.current, x1: position(e).x };
            setDrag(dragRef.current);
          }}
          onPointerLeave={() => setHover(null)}
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
        {hover && (
          <div className="tl-tooltip" role="tooltip" style={{ left: Math.min(hover.x + 12, width - 220), top: hover.y + 14 }}>
            {hover.lines.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </div>
        )}
        {drag && (
          <div
            className="tl-drag"
            style={{ left: Math.min(drag.x0, drag.x1), top: AXIS_HEIGHT, width: Math.abs(drag.x1 - drag.x0), height: height - AXIS_HEIGHT }}
          />
        )}
      </div>
    </div>
  );
}

/** Lanes labelled beyond each edge of the viewport, so that scrolling does not outrun the labels. */
const LABEL_OVERSCAN = 8;

/**
 * The lanes [first, end) whose labels are in the DOM: those in the scroller's viewport and a few
 * more, following its scrolling. Labelling only those keeps a first render to a few dozen rows
 * whatever the number of lanes (the canvas draws only the lanes in view too).
 */
function useLanesInView(scroller: RefObject<HTMLElement | null>, count: number, viewHeight: number) {
  // The lane at the top of the viewport, not the scroll offset: scrolling within a lane renders nothing.
  const [topLane, setTopLane] = useState(0);
  useEffect(() => {
    const scrolling = scroller.current;
    if (!scrolling) return;
    const follow = () => setTopLane(Math.max(0, Math.floor((scrolling.scrollTop - AXIS_HEIGHT) / LANE_HEIGHT)));
    follow();
    scrolling.addEventListener("scroll", follow, { passive: true });
    return () => scrolling.removeEventListener("scroll", follow);
  }, [scroller]);
  return {
    first: Math.max(0, topLane - LABEL_OVERSCAN),
    end: Math.min(count, topLane + Math.ceil(viewHeight / LANE_HEIGHT) + 1 + LABEL_OVERSCAN),
  };
}

/**
 * Lanes [first, end): their bands, then their bars, one look at a time: changing the fill between
 * rectangles costs more than drawing them. Lanes do not overlap, so the order across lanes does not show.
 */
function drawLanes(ctx: CanvasRenderingContext2D, lanes: LaneLayout[], first: number, end: number, width: number, selected: string | null) {
  const looks = new Map<string, { alpha: number; fill: string | CanvasPattern; rects: number[] }>();
  const add = (alpha: number, fill: string | CanvasPattern, x: number, y: number, w: number, h: number) => {
    const key = `${alpha} ${typeof fill === "string" ? fill : "pattern"}`;
    const look = looks.get(key) ?? { alpha, fill, rects: [] };
    looks.set(key, look);
    look.rects.push(x, y, w, h);
  };
  const stripes = ctx.createPattern(stripeTile(), "repeat");
  let highlight: { x: number; y: number; w: number } | null = null;
  for (let i = first; i < end; i++) {
    const lane = lanes[i] as LaneLayout;
    const y = AXIS_HEIGHT + i * LANE_HEIGHT;
    if (lane.firstOfHost && i > 0) add(1, "#2c3d5b", 0, y, width, 1);
    for (const band of lane.bands) {
      const alpha = band.state === "OK" ? 0.12 : band.hard ? 0.35 : 0.18;
      add(alpha, STATE_COLORS[band.state], band.x0, y + 2, Math.max(1, band.x1 - band.x0), LANE_HEIGHT - 4);
    }
  }
  // Bars after every band (a lane's bars sit on its bands), stripes after every bar.
  for (const layer of ["bars", "stripes"] as const) {
    for (let i = first; i < end; i++) {
      const y = AXIS_HEIGHT + i * LANE_HEIGHT + 6;
      for (const bar of (lanes[i] as LaneLayout).bars) {
        const w = Math.max(2, bar.x1 - bar.x0);
        const alpha = bar.acknowledged ? 0.5 : 1;
        if (layer === "bars") add(alpha, STATE_COLORS[bar.severity], bar.x0, y, w, LANE_HEIGHT - 12);
        else if (bar.flapping && stripes) add(alpha, stripes, bar.x0, y, w, LANE_HEIGHT - 12);
        if (bar.alertId === selected) highlight = { x: bar.x0, y: y - 2, w };
      }
    }
  }
  for (const { alpha, fill, rects } of looks.values()) {
    ctx.globalAlpha = alpha;
    ctx.fillStyle = fill;
    for (let r = 0; r < rects.length; r += 4)
      ctx.fillRect(rects[r] as number, rects[r + 1] as number, rects[r + 2] as number, rects[r + 3] as number);
  }
  ctx.globalAlpha = 1;
  if (highlight) {
    ctx.strokeStyle = getComputedStyle(ctx.canvas).getPropertyValue("--text").trim() || "#ffffff";
    ctx.lineWidth = 2;
    ctx.strokeRect(highlight.x - 1, highlight.y, highlight.w + 2, LANE_HEIGHT - 8);
  }
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
