import type { State } from "@tidemark/thresholds";
import type { EvaluationOutcome } from "../src/index.ts";

/** A value per state against the fixtures' threshold: T = 100 with `<`, W at 110, C at 130. */
export const FIXTURE_VALUES: Record<State, number> = { OK: 90, WARNING: 120, CRITICAL: 150, UNKNOWN: 0 };

/**
 * A hard result of `state` against the fixtures' threshold, as the worker hands it to the alert
 * machine: shared by the browser tests' seed and the timeline benchmarks.
 */
export function hardOutcome(seriesId: number, key: string, ts: number, state: State): EvaluationOutcome {
  const value = FIXTURE_VALUES[state];
  return {
    seriesId,
    key,
    ts: new Date(ts),
    state,
    hardState: state,
    hard: true,
    value,
    threshold: 100,
    warning: 110,
    critical: 130,
    explanation: `${state} ${value} (100 < W < 110 < C < 130)`,
  };
}

/** The scripted outcomes' first instant, and their spacing. */
export const T0 = Date.UTC(2026, 0, 5, 12, 0);
export const MINUTE = 60_000;
const LETTERS: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };

/**
 * One result a minute from `start`, read from a script such as "OwWCcO": upper case letters are hard
 * states, lower case soft ones (the notification plan's unit tests and db's alert-store tests share it).
 */
export function script(seriesId: number, key: string, text: string, opts: { start?: number; values?: number[] } = {}): EvaluationOutcome[] {
  let hard: State = "OK";
  return [...text].map((ch, i) => {
    const state = LETTERS[ch.toUpperCase()] as State;
    if (ch === ch.toUpperCase()) hard = state;
    const value = opts.values?.[i] ?? (state === "OK" ? 90 : state === "WARNING" ? 120 : 150);
    return {
      seriesId,
      key,
      ts: new Date((opts.start ?? T0) + i * MINUTE),
      state,
      hardState: hard,
      hard: ch === ch.toUpperCase(),
      value,
      threshold: 100,
      warning: 110,
      critical: 130,
      explanation: `${state} ${value} (100 < W < 110 < C < 130)`,
    };
  });
}
