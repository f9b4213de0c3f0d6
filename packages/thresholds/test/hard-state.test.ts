/**
 * Soft and hard states, ported from Bischeck's
 * src/test/java/com/ingby/socbox/bischeck/service/ServiceStateTest.java. Bischeck's levels map
 * to the track: OKAY_HARD is an OK result, PROBLEM_SOFT a problem while the hard state is still
 * OK, PROBLEM_HARD a problem hard state; its isNotification() is `hardChanged`.
 */
import { describe, expect, it } from "vitest";
import { type HardStateStep, type HardStateTrack, INITIAL_HARD_STATE, nextHardState, type State } from "../src/index.ts";

type Level = "OKAY_HARD" | "PROBLEM_SOFT" | "PROBLEM_HARD";
const O = "OK" as const;
const W = "WARNING" as const;
const C = "CRITICAL" as const;
const U = "UNKNOWN" as const;

function level(t: HardStateTrack): Level {
  if (t.hardState !== "OK") return "PROBLEM_HARD";
  return t.state === "OK" ? "OKAY_HARD" : "PROBLEM_SOFT";
}

function run(states: readonly State[], maxSoft = 3, start: HardStateTrack = INITIAL_HARD_STATE): HardStateStep[] {
  const out: HardStateStep[] = [];
  let track = start;
  for (const s of states) {
    const step = nextHardState(track, s, maxSoft);
    out.push(step);
    track = step;
  }
  return out;
}

/** [result, level, soft count or null when the Java test does not assert it, notification]. */
type Row = readonly [State, Level, number | null, boolean];

describe.each<[string, number, readonly Row[]]>([
  [
    "ServiceStateTest.verifyFSM",
    3,
    [
      [O, "OKAY_HARD", null, false],
      [W, "PROBLEM_SOFT", 1, false],
      [W, "PROBLEM_SOFT", 2, false],
      [W, "PROBLEM_SOFT", 3, false],
      [W, "PROBLEM_HARD", 0, true],
      [W, "PROBLEM_HARD", 0, false],
      [C, "PROBLEM_HARD", 0, true],
      [O, "OKAY_HARD", 0, true],
      [W, "PROBLEM_SOFT", 1, false],
      [C, "PROBLEM_SOFT", 2, false],
      [O, "OKAY_HARD", null, false],
      [O, "OKAY_HARD", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_HARD", null, true],
      [W, "PROBLEM_HARD", null, false],
      [C, "PROBLEM_HARD", null, true],
    ],
  ],
  [
    "ServiceStateTest.verifyFSMmax (maxSoft 2)",
    2,
    [
      [O, "OKAY_HARD", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_HARD", null, true],
      [W, "PROBLEM_HARD", null, false],
      [W, "PROBLEM_HARD", null, false],
      [O, "OKAY_HARD", null, true],
      [W, "PROBLEM_SOFT", null, false],
      [C, "PROBLEM_SOFT", null, false],
      [O, "OKAY_HARD", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [W, "PROBLEM_HARD", null, true],
      [W, "PROBLEM_HARD", null, false],
      [W, "PROBLEM_HARD", null, false],
    ],
  ],
  [
    "ServiceStateTest.verifyFSMStateChangeSoft (maxSoft 2)",
    2,
    [
      [O, "OKAY_HARD", null, false],
      [W, "PROBLEM_SOFT", null, false],
      [C, "PROBLEM_SOFT", null, false],
    ],
  ],
  [
    "ServiceStateTest.verifyFSMStateUnkown (maxSoft 2)",
    2,
    [
      [O, "OKAY_HARD", null, false],
      [U, "PROBLEM_SOFT", null, false],
      [U, "PROBLEM_SOFT", null, false],
      [U, "PROBLEM_HARD", null, true],
      [U, "PROBLEM_HARD", null, false],
      [U, "PROBLEM_HARD", null, false],
    ],
  ],
])("%s", (_name, maxSoft, rows) => {
  const steps = run(
    rows.map((r) => r[0]),
    maxSoft,
  );
  it.each(rows.map((row, i) => [i + 1, row] as const))("result %s: %j", (n, [, expectedLevel, softCount, notification]) => {
    const step = steps[n - 1] as HardStateStep;
    expect(level(step)).toBe(expectedLevel);
    if (softCount !== null) expect(step.count).toBe(softCount);
    expect(step.hardChanged).toBe(notification);
  });
});

describe("ServiceStateTest.verifyFSMmaxWithState (starting hard CRITICAL, maxSoft 5)", () => {
  it("recovers with a notification, then a soft run ending in OK notifies nothing", () => {
    const steps = run([O, W, C, W, W, W, O], 5, { state: C, hardState: C, count: 5 });
    expect(level(steps[0] as HardStateStep)).toBe("OKAY_HARD");
    expect(steps[0]?.hardChanged).toBe(true);
    expect(steps.slice(1).map(level)).toEqual([
      "PROBLEM_SOFT",
      "PROBLEM_SOFT",
      "PROBLEM_SOFT",
      "PROBLEM_SOFT",
      "PROBLEM_SOFT",
      "OKAY_HARD",
    ]);
    expect(steps.at(-1)?.hardChanged).toBe(false);
  });
});

describe("hard states as the issue states them", () => {
  it("maxSoft 3 and O,W,W,W,W,W,C give the hard states O,O,O,O,W,W,C", () => {
    expect(run([O, W, W, W, W, W, C]).map((s) => s.hardState)).toEqual([O, O, O, O, W, W, C]);
  });
  it("maxSoft 1: the second problem result is hard", () => {
    expect(run([U, W, O], 1).map((s) => s.hardState)).toEqual([O, W, O]);
  });
  it("maxSoft 0 (Tidemark's; Bischeck's files start at 1): every result is hard at once", () => {
    expect(run([U, W, O], 0).map((s) => s.hardState)).toEqual([U, W, O]);
  });
});
