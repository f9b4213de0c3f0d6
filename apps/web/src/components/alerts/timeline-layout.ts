import type { Timeline } from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";

/**
 * Turns the timeline payload into rectangles in pixels, merging what would draw inside the same
 * pixel, so that drawing 10 000 alerts costs what the screen can show rather than what the
 * database holds.
 */

export type LayoutInput = Pick<Timeline, "lanes" | "alerts" | "changes">;

export interface Band {
  x0: number;
  x1: number;
  state: State;
  hard: boolean;
}

export interface Bar {
  x0: number;
  x1: number;
  alertId: string;
  severity: State;
  acknowledged: boolean;
  flapping: boolean;
}

export interface LaneLayout {
  seriesId: number;
  key: string;
  host: string;
  service: string;
  item: string;
  /** True for the first lane of a host, where the host's name is shown. */
  firstOfHost: boolean;
  bands: Band[];
  bars: Bar[];
}

const MIN_BAR_PX = 2;

export function layoutTimeline(input: LayoutInput, window: { from: number; to: number }, width: number, now: number): LaneLayout[] {
  const span = window.to - window.from;
  const x = (t: number) => Math.min(width, Math.max(0, ((t - window.from) / span) * width));
  const end = Math.min(now, window.to);

  const changesBySeries = new Map<number, LayoutInput["changes"]>();
  for (const c of input.changes) {
    const list = changesBySeries.get(c.seriesId);
    if (list) list.push(c);
    else changesBySeries.set(c.seriesId, [c]);
  }
  const alertsBySeries = new Map<number, LayoutInput["alerts"]>();
  for (const a of input.alerts) {
    const list = alertsBySeries.get(a.seriesId);
    if (list) list.push(a);
    else alertsBySeries.set(a.seriesId, [a]);
  }

  // The lanes come in the order they are shown (the server sorts them).
  const { lanes } = input;
  return lanes.map((lane, i) => {
    const changes = (changesBySeries.get(lane.seriesId) ?? []).slice().sort((a, b) => a.ts - b.ts);
    const bands: Band[] = [];
    for (let j = 0; j < changes.length; j++) {
      const c = changes[j] as LayoutInput["changes"][number];
      const next = changes[j + 1];
      const x0 = x(c.ts);
      const x1 = x(next ? next.ts : end);
      if (x1 <= x0 && next) continue;
      const last = bands[bands.length - 1];
      if (last && last.state === c.state && last.hard === c.hard && x0 - last.x1 < 1) last.x1 = Math.max(last.x1, x1);
      else if (last && x1 - last.x1 < 0.5) continue;
      else bands.push({ x0, x1, state: c.state, hard: c.hard });
    }
    const bars: Bar[] = [];
    const alerts = (alertsBySeries.get(lane.seriesId) ?? []).slice().sort((a, b) => a.openedAt - b.openedAt);
    for (const a of alerts) {
      const x0 = x(a.openedAt);
      const x1 = Math.max(x0 + MIN_BAR_PX, x(a.closedAt ?? end));
      const last = bars[bars.length - 1];
      // Alerts closer than a pixel merge into the worse-looking one; the list below keeps them apart.
      if (
        last &&
        x0 <= last.x1 &&
        last.severity === a.peakSeverity &&
        last.acknowledged === a.acknowledged &&
        last.flapping === a.flapping
      ) {
        last.x1 = Math.max(last.x1, x1);
        continue;
      }
      bars.push({ x0, x1, alertId: a.id, severity: a.peakSeverity, acknowledged: a.acknowledged, flapping: a.flapping });
    }
    const previous = lanes[i - 1];
    return { ...lane, firstOfHost: !previous || previous.host !== lane.host, bands, bars };
  });
}

/** The alert drawn at x in a lane (within `slop` pixels), the nearest one when several are. */
export function alertAt(lane: LaneLayout, px: number, slop = 3): string | null {
  let best: { id: string; distance: number } | null = null;
  for (const bar of lane.bars) {
    const distance = px < bar.x0 ? bar.x0 - px : px > bar.x1 ? px - bar.x1 : 0;
    if (distance <= slop && (!best || distance < best.distance)) best = { id: bar.alertId, distance };
  }
  return best?.id ?? null;
}
