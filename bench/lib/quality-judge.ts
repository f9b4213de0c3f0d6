import { INITIAL_HARD_STATE, nextHardState, type State } from "@tidemark/thresholds";

/**
 * How a detector fared on labelled history: alert episodes (hard state leaving OK until it returns),
 * which windows they caught and how late, and how many began outside every window.
 */
export interface Judgement {
  readonly windows: number;
  readonly detected: number;
  /** Hours from each detected window's start to its first hard non-OK result (0 when an episode was already open). */
  readonly delaysHours: number[];
  readonly falseEpisodes: number;
  readonly episodes: number;
  /** Weeks of judged history outside the windows. */
  readonly weeksOutside: number;
}

const WEEK = 7 * 86_400_000;

/** Whether each result's hard state is non-OK, with the engine's soft/hard rules. */
export function hardProblems(states: readonly State[], maxSoft: number): boolean[] {
  let track = INITIAL_HARD_STATE;
  return states.map((state) => {
    track = nextHardState(track, state, maxSoft);
    return track.hardState !== "OK";
  });
}

export function judge(
  timestamps: ArrayLike<number>,
  problems: readonly boolean[],
  windows: readonly { from: number; to: number }[],
  from: number,
  to: number,
): Judgement {
  const inWindow = (t: number) => windows.some((w) => t >= w.from && t <= w.to);
  let episodes = 0;
  let falseEpisodes = 0;
  const firstHit = new Map<number, number>();
  for (let i = 0; i < problems.length; i++) {
    const t = timestamps[i] as number;
    if (!problems[i]) continue;
    if (i === 0 || !problems[i - 1]) {
      episodes++;
      if (!inWindow(t)) falseEpisodes++;
    }
    windows.forEach((w, k) => {
      if (t >= w.from && t <= w.to && !firstHit.has(k)) firstHit.set(k, t);
    });
  }
  const inside = windows.reduce((a, w) => a + Math.max(0, Math.min(to, w.to) - Math.max(from, w.from)), 0);
  return {
    windows: windows.length,
    detected: firstHit.size,
    delaysHours: [...firstHit.entries()].map(([k, t]) => (t - (windows[k] as { from: number }).from) / 3_600_000),
    falseEpisodes,
    episodes,
    weeksOutside: Math.max(0, to - from - inside) / WEEK,
  };
}

/** Soft state per value against an upper and a lower line (either may be absent): what a classic detector raises. */
export function statesAgainst(values: ArrayLike<number>, upper: (i: number) => number, lower: (i: number) => number): State[] {
  return Array.from({ length: values.length }, (_, i) => {
    const v = values[i] as number;
    if (!Number.isFinite(v)) return "OK";
    return v > upper(i) || v < lower(i) ? "WARNING" : "OK";
  });
}
