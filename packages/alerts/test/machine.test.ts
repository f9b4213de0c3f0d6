import type { State } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import {
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  type EvaluationOutcome,
  runAlertMachine,
  stepAlert,
} from "../src/index.ts";

const T0 = Date.UTC(2026, 0, 5, 12, 0);
const MINUTE = 60_000;

/** A result per minute. "W" is a hard WARNING, "w" a soft one (hard state still OK), "o" OK. */
function outcomes(script: string, values: (number | null)[] = []): EvaluationOutcome[] {
  const hardOf: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };
  let hard: State = "OK";
  return [...script].map((ch, i) => {
    const upper = ch.toUpperCase();
    const state = hardOf[upper] as State;
    const isHard = ch === upper;
    if (isHard) hard = state;
    return {
      seriesId: 1,
      key: "web01-http-latency",
      ts: new Date(T0 + i * MINUTE),
      state,
      hardState: isHard ? state : hard,
      hard: isHard,
      value: values[i] ?? null,
      threshold: 100,
      warning: 110,
      critical: 130,
      explanation: `${state} at minute ${i}`,
    };
  });
}

function run(script: string, settings: Partial<AlertSettings> = {}, values?: (number | null)[]) {
  return runAlertMachine(EMPTY_TRACK, outcomes(script, values), { ...DEFAULT_ALERT_SETTINGS, ...settings });
}

const kinds = (r: ReturnType<typeof run>) => r.steps.flatMap((s) => s.transitions.map((t) => `${t.kind}:${t.severity}`));
const notifications = (r: ReturnType<typeof run>) => r.steps.map((s) => s.notify).filter(Boolean);

describe("the alert state machine", () => {
  it.each([
    { name: "OK results raise nothing", script: "OOOO", transitions: [], notify: [], open: null },
    { name: "soft non-OK results raise nothing", script: "OwwO", transitions: [], notify: [], open: null },
    { name: "a hard WARNING opens an alert", script: "OwwW", transitions: ["opened:WARNING"], notify: ["firing"], open: "WARNING" },
    {
      name: "WARNING escalates to CRITICAL",
      script: "WccC",
      transitions: ["opened:WARNING", "escalated:CRITICAL"],
      notify: ["firing", "firing"],
      open: "CRITICAL",
    },
    {
      name: "CRITICAL de-escalates to WARNING",
      script: "CwwW",
      transitions: ["opened:CRITICAL", "deescalated:WARNING"],
      notify: ["firing", "firing"],
      open: "WARNING",
    },
    { name: "a hard UNKNOWN opens an alert", script: "U", transitions: ["opened:UNKNOWN"], notify: ["firing"], open: "UNKNOWN" },
    {
      name: "recovery closes the alert",
      script: "WO",
      transitions: ["opened:WARNING", "closed:WARNING"],
      notify: ["firing", "resolved"],
      open: null,
    },
    {
      name: "a second problem after recovery opens a new alert",
      script: "COOOOOOOOOOW",
      transitions: ["opened:CRITICAL", "closed:CRITICAL", "opened:WARNING"],
      notify: ["firing", "resolved", "firing"],
      open: "WARNING",
    },
  ])("$name", ({ script, transitions, notify, open }) => {
    const result = run(script);
    expect(kinds(result)).toEqual(transitions);
    expect(notifications(result)).toEqual(notify);
    expect(result.track.open?.severity ?? null).toBe(open);
  });

  it("keeps the peak severity after de-escalation", () => {
    const result = run("WCW");
    expect(result.track.open).toMatchObject({ severity: "WARNING", peakSeverity: "CRITICAL", openedAt: new Date(T0) });
  });

  it("ignores results not newer than the last one, so a replayed batch changes nothing", () => {
    const first = run("WO");
    const replay = runAlertMachine(first.track, outcomes("WO"));
    expect(replay.steps).toEqual([]);
    expect(replay.track).toEqual(first.track);
  });

  it("orders a batch's results by time", () => {
    const shuffled = outcomes("WCO").reverse();
    const result = runAlertMachine(EMPTY_TRACK, shuffled);
    expect(result.steps.flatMap((s) => s.transitions.map((t) => t.kind))).toEqual(["opened", "escalated", "closed"]);
  });
});

describe("recovery margin (hysteresis, % of the threshold)", () => {
  // Threshold 100, warning boundary 110 ("should be lower"): with a 5 % margin the value must be ≤ 105.
  it.each([
    { margin: 0, values: [120, 109], closesAt: 1 },
    { margin: 5, values: [120, 109, 106, 105], closesAt: 3 },
    { margin: 5, values: [120, 109, 104], closesAt: 2 },
    { margin: 20, values: [120, 109, 95, 91, 90], closesAt: 4 },
  ])("margin $margin %: values $values close at result $closesAt", ({ margin, values, closesAt }) => {
    const script = `W${"O".repeat(values.length - 1)}`;
    const result = run(script, { recoveryMarginPercent: margin }, values);
    const closed = result.steps.findIndex((s) => s.transitions.some((t) => t.kind === "closed"));
    expect(closed).toBe(closesAt);
    expect(result.steps[closed]!.alert?.closedAt).toEqual(new Date(T0 + closesAt * MINUTE));
  });

  it("uses the calc method when given: for '=' the value must come back inside the narrowed band", () => {
    const base = outcomes("WOO", [120, 92, 96]).map((o) => ({ ...o, calcMethod: "=" as const }));
    const result = runAlertMachine(EMPTY_TRACK, base, { ...DEFAULT_ALERT_SETTINGS, recoveryMarginPercent: 5 });
    expect(result.steps.map((s) => s.transitions.map((t) => t.kind))).toEqual([["opened"], [], ["closed"]]);
  });

  it("for 'should be higher' the value must rise above the warning boundary by the margin", () => {
    const higher = outcomes("WOO", [80, 91, 96]).map((o) => ({ ...o, warning: 90, critical: 70, calcMethod: ">" as const }));
    const result = runAlertMachine(EMPTY_TRACK, higher, { ...DEFAULT_ALERT_SETTINGS, recoveryMarginPercent: 5 });
    expect(result.steps.map((s) => s.transitions.map((t) => t.kind))).toEqual([["opened"], [], ["closed"]]);
  });
});

describe("minimum duration", () => {
  it.each([
    { minutes: 0, script: "WOOO", closesAt: 1 },
    { minutes: 2, script: "WOOO", closesAt: 3 },
    { minutes: 2, script: "WOWOOO", closesAt: 5 },
    { minutes: 5, script: "WOOO", closesAt: -1 },
  ])("$minutes min over $script closes at result $closesAt", ({ minutes, script, closesAt }) => {
    const result = run(script, { minimumDurationMs: minutes * MINUTE });
    const closed = result.steps.findIndex((s) => s.transitions.some((t) => t.kind === "closed"));
    expect(closed).toBe(closesAt);
  });

  it("dates the close at the start of the recovery that held", () => {
    const result = run("WOWOOO", { minimumDurationMs: 2 * MINUTE });
    expect(result.steps[5]!.alert?.closedAt).toEqual(new Date(T0 + 3 * MINUTE));
    expect(result.steps[5]!.transitions).toEqual([{ kind: "closed", at: new Date(T0 + 3 * MINUTE), severity: "WARNING" }]);
  });
});

describe("flapping", () => {
  it("marks the alert flapping, holds notifications while it flaps, and announces again when it stops", () => {
    // 20 results alternating, then a long steady CRITICAL.
    const result = run(`${"CO".repeat(10)}${"C".repeat(21)}`);
    const started = result.steps.findIndex((s) => s.transitions.some((t) => t.kind === "flapping-started"));
    const stopped = result.steps.findIndex((s) => s.transitions.some((t) => t.kind === "flapping-stopped"));
    expect(started).toBeGreaterThan(0);
    expect(stopped).toBeGreaterThan(started);
    expect(result.steps.slice(started, stopped).every((s) => s.notify === null)).toBe(true);
    // The alert open when flapping began is not closed by the recoveries that follow.
    expect(result.steps.slice(started, stopped).some((s) => s.transitions.some((t) => t.kind === "closed"))).toBe(false);
    expect(result.steps[stopped]!.notify).toBe("firing");
    expect(result.track.open).toMatchObject({ severity: "CRITICAL", flapping: true });
    expect(result.track.flapping).toBe(false);
  });

  it("holds escalations and de-escalations while the series flaps", () => {
    const result = run(`${"CO".repeat(6)}${"CW".repeat(8)}`);
    const flapping = result.steps.filter((s) => s.track.flapping);
    const changes = flapping.filter((s) => s.transitions.some((t) => t.kind === "escalated" || t.kind === "deescalated"));
    expect(changes.length).toBeGreaterThan(5);
    expect(changes.every((s) => s.notify === null && s.heldForFlapping)).toBe(true);
  });

  it("a steady series never flaps", () => {
    const result = run("C".repeat(40));
    expect(result.steps.every((s) => s.flapPercent === 0)).toBe(true);
    expect(result.track.flapping).toBe(false);
  });

  it("closes a flapped alert once flapping stops and the item is recovered", () => {
    const result = run(`${"CO".repeat(10)}${"O".repeat(25)}`);
    const closed = result.steps.findLastIndex((s) => s.transitions.some((t) => t.kind === "closed"));
    const stopped = result.steps.findIndex((s) => s.transitions.some((t) => t.kind === "flapping-stopped"));
    expect(closed).toBe(stopped);
    expect(result.steps[closed]!.notify).toBe("resolved");
    expect(result.track.open).toBeNull();
  });

  it("stepAlert keeps the track immutable", () => {
    const [first] = outcomes("W");
    const track = { ...EMPTY_TRACK };
    const step = stepAlert(track, first!);
    expect(track).toEqual(EMPTY_TRACK);
    expect(step?.track.open?.severity).toBe("WARNING");
  });
});
