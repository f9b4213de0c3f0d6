import type { State } from "@tidemark/thresholds";

/**
 * What the alert timeline shows for a window, and its wire form. At 10 000 alerts an array of
 * objects costs more to serialise and parse (superjson walks every field on both ends) than the
 * query does, and every byte is paid again by the server's compression, the browser's HTML
 * parser (the page streams the first answer inside its HTML) and JSON.parse. So the wire form is
 * one JSON string of columns: states as letters, flags as digits, alert ids in one string,
 * series as positions in the lanes, and times as the gap from the time before them (relative to
 * the window's start for the first), which takes fewer digits than an instant.
 */

export interface TimelineAlert {
  /** The alert's UUID. */
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
  /**
   * In the order the timeline shows them: by host, then service, then item. Sorted where the
   * timeline is made: a browser's first collator costs tens of milliseconds on a first visit.
   */
  lanes: TimelineLane[];
  /** Newest first. */
  alerts: TimelineAlert[];
  /** By lane, in the lanes' order, and by time within a lane. */
  changes: TimelineChange[];
  /** More alerts matched than the limit: the newest were kept. */
  truncated: boolean;
}

const LETTER: Record<State, string> = { OK: "O", WARNING: "W", CRITICAL: "C", UNKNOWN: "U" };
const STATE: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };

/** A state from its first letter, as the wire form (and the timeline's query) writes states. */
export function stateOfLetter(letter: string): State {
  const state = STATE[letter];
  if (!state) throw new Error(`no state is written ${JSON.stringify(letter)}`);
  return state;
}

const ACKNOWLEDGED = 1;
const FLAPPING = 2;

interface WireTimeline {
  base: number;
  truncated: boolean;
  lanes: [number, string, string, string, string][];
  alerts: {
    /** The ids joined with commas (UUIDs have none): one string, not a quoted string each. */
    ids: string;
    /** Position of each alert's lane in `lanes`. */
    lane: number[];
    severity: string;
    peak: string;
    /** The first relative to `base`, then each how long before the previous one it opened. */
    opened: number[];
    /** How long each lasted; null while open. */
    duration: (number | null)[];
    flags: string;
  };
  changes: {
    /** How many changes each lane has, in the lanes' order. */
    perLane: number[];
    /** Per lane, the first relative to `base`, then the time since the lane's previous change. */
    ts: number[];
    state: string;
    hard: string;
  };
}

export function encodeTimeline(timeline: Timeline, base: number): string {
  const { lanes, alerts } = timeline;
  const laneIndex = new Map(lanes.map((l, i) => [l.seriesId, i]));
  const laneOf = (seriesId: number) => {
    const index = laneIndex.get(seriesId);
    if (index === undefined) throw new Error(`series ${seriesId} has no lane in this timeline`);
    return index;
  };
  const byLane: TimelineChange[][] = lanes.map(() => []);
  for (const c of timeline.changes) byLane[laneOf(c.seriesId)]?.push(c);
  // The timeline's query hands them over in time order already: sorting is then only checking.
  const inOrder = (list: TimelineChange[]) => list.every((c, i) => i === 0 || (list[i - 1] as TimelineChange).ts <= c.ts);
  // concat, not flatMap: at 25 000 changes flatMap alone costs a quarter of the encoding.
  const changes = ([] as TimelineChange[]).concat(...byLane.map((list) => (inOrder(list) ? list : list.sort((a, b) => a.ts - b.ts))));
  const wire: WireTimeline = {
    base,
    truncated: timeline.truncated,
    lanes: lanes.map((l) => [l.seriesId, l.key, l.host, l.service, l.item]),
    alerts: {
      ids: alerts.map((a) => a.id).join(","),
      lane: alerts.map((a) => laneOf(a.seriesId)),
      severity: alerts.map((a) => LETTER[a.severity]).join(""),
      peak: alerts.map((a) => LETTER[a.peakSeverity]).join(""),
      opened: alerts.map((a, i) => (i === 0 ? a.openedAt - base : (alerts[i - 1] as TimelineAlert).openedAt - a.openedAt)),
      duration: alerts.map((a) => (a.closedAt === null ? null : a.closedAt - a.openedAt)),
      flags: alerts.map((a) => (a.acknowledged ? ACKNOWLEDGED : 0) | (a.flapping ? FLAPPING : 0)).join(""),
    },
    changes: {
      perLane: byLane.map((list) => list.length),
      ts: changes.map((c, i) => {
        const previous = changes[i - 1];
        return previous?.seriesId === c.seriesId ? c.ts - previous.ts : c.ts - base;
      }),
      state: changes.map((c) => LETTER[c.state]).join(""),
      hard: changes.map((c) => (c.hard ? "1" : "0")).join(""),
    },
  };
  return JSON.stringify(wire);
}

export function decodeTimeline(text: string): Timeline {
  const wire = JSON.parse(text) as WireTimeline;
  const { base, alerts, changes } = wire;
  const lanes = wire.lanes.map(([seriesId, key, host, service, item]) => ({ seriesId, key, host, service, item }));
  const seriesAt = (lane: number) => (lanes[lane] as TimelineLane).seriesId;
  let openedAt = base;
  const decodedChanges: TimelineChange[] = [];
  let at = 0;
  changes.perLane.forEach((count, lane) => {
    let ts = base;
    for (let i = 0; i < count; i++, at++) {
      ts += changes.ts[at] as number;
      decodedChanges.push({
        seriesId: seriesAt(lane),
        ts,
        state: STATE[changes.state[at] as string] as State,
        hard: changes.hard[at] === "1",
      });
    }
  });
  return {
    truncated: wire.truncated,
    lanes,
    alerts: (alerts.ids === "" ? [] : alerts.ids.split(",")).map((id, i) => {
      openedAt = i === 0 ? openedAt + (alerts.opened[i] as number) : openedAt - (alerts.opened[i] as number);
      const duration = alerts.duration[i];
      const flags = Number(alerts.flags[i]);
      return {
        id,
        seriesId: seriesAt(alerts.lane[i] as number),
        severity: STATE[alerts.severity[i] as string] as State,
        peakSeverity: STATE[alerts.peak[i] as string] as State,
        openedAt,
        closedAt: duration === null || duration === undefined ? null : openedAt + duration,
        acknowledged: (flags & ACKNOWLEDGED) !== 0,
        flapping: (flags & FLAPPING) !== 0,
      };
    }),
    changes: decodedChanges,
  };
}
