import type { State } from "@tidemark/thresholds";

/**
 * What the alert timeline shows for a window, and its wire form. At 10 000 alerts an array of
 * objects costs more to serialise and parse (superjson walks every field on both ends) than the
 * query does, so the wire form is columnar, one JSON string, with times relative to the window
 * and states as letters.
 */

export interface TimelineAlert {
  id: string;
  seriesId: number;
  severity: State;
  peakSeverity: State;
  openedAt: number;
  closedAt: number | null;
  acknowledged: boolean;
  flapping: boolean;
}

export interface TimelineLane {
  seriesId: number;
  key: string;
  host: string;
  service: string;
  item: string;
}

/** A state change: the lane has `state` from `ts` until the lane's next change. */
export interface TimelineChange {
  seriesId: number;
  ts: number;
  state: State;
  hard: boolean;
}

export interface Timeline {
  lanes: TimelineLane[];
  alerts: TimelineAlert[];
  changes: TimelineChange[];
  /** More alerts matched than the limit: the newest were kept. */
  truncated: boolean;
}

const LETTER: Record<State, string> = { OK: "O", WARNING: "W", CRITICAL: "C", UNKNOWN: "U" };
const STATE: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };
const ACKNOWLEDGED = 1;
const FLAPPING = 2;

interface WireTimeline {
  base: number;
  truncated: boolean;
  lanes: [number, string, string, string, string][];
  alerts: { id: string[]; series: number[]; severity: string; peak: string; opened: number[]; closed: (number | null)[]; flags: number[] };
  changes: { series: number[]; ts: number[]; state: string; hard: string };
}

export function encodeTimeline(timeline: Timeline, base: number): string {
  const { alerts, changes } = timeline;
  const wire: WireTimeline = {
    base,
    truncated: timeline.truncated,
    lanes: timeline.lanes.map((l) => [l.seriesId, l.key, l.host, l.service, l.item]),
    alerts: {
      id: alerts.map((a) => a.id),
      series: alerts.map((a) => a.seriesId),
      severity: alerts.map((a) => LETTER[a.severity]).join(""),
      peak: alerts.map((a) => LETTER[a.peakSeverity]).join(""),
      opened: alerts.map((a) => a.openedAt - base),
      closed: alerts.map((a) => (a.closedAt === null ? null : a.closedAt - base)),
      flags: alerts.map((a) => (a.acknowledged ? ACKNOWLEDGED : 0) | (a.flapping ? FLAPPING : 0)),
    },
    changes: {
      series: changes.map((c) => c.seriesId),
      ts: changes.map((c) => c.ts - base),
      state: changes.map((c) => LETTER[c.state]).join(""),
      hard: changes.map((c) => (c.hard ? "1" : "0")).join(""),
    },
  };
  return JSON.stringify(wire);
}

export function decodeTimeline(text: string): Timeline {
  const wire = JSON.parse(text) as WireTimeline;
  const { base, alerts, changes } = wire;
  return {
    truncated: wire.truncated,
    lanes: wire.lanes.map(([seriesId, key, host, service, item]) => ({ seriesId, key, host, service, item })),
    alerts: alerts.id.map((id, i) => {
      const closed = alerts.closed[i];
      const flags = alerts.flags[i] ?? 0;
      return {
        id,
        seriesId: alerts.series[i] as number,
        severity: STATE[alerts.severity[i] as string] as State,
        peakSeverity: STATE[alerts.peak[i] as string] as State,
        openedAt: (alerts.opened[i] as number) + base,
        closedAt: closed === null || closed === undefined ? null : closed + base,
        acknowledged: (flags & ACKNOWLEDGED) !== 0,
        flapping: (flags & FLAPPING) !== 0,
      };
    }),
    changes: changes.series.map((seriesId, i) => ({
      seriesId,
      ts: (changes.ts[i] as number) + base,
      state: STATE[changes.state[i] as string] as State,
      hard: changes.hard[i] === "1",
    })),
  };
}
