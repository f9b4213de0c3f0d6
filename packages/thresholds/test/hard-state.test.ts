import { describe, expect, it } from "vitest";
import { type HardStateTrack, INITIAL_HARD_STATE, nextHardState, type State } from "../src/index.ts";

function run(states: State[], maxSoft = 3): HardStateTrack[] {
  const out: HardStateTrack[] = [];
  let track: HardStateTrack = INITIAL_HARD_STATE;
  for (const s of states) {
    track = nextHardState(track, s, maxSoft);
    out.push(track);
  }
  return out;
}

describe("soft and hard states", () => {
  it("a problem becomes hard after maxSoft consecutive results", () => {
    const t = run(["CRITICAL", "CRITICAL", "CRITICAL", "CRITICAL"]);
    expect(t.map((x) => x.hardState)).toEqual(["OK", "OK", "CRITICAL", "CRITICAL"]);
    expect(t.map((x) => x.count)).toEqual([1, 2, 3, 4]);
  });

  it("reports when the hard state changes", () => {
    let track = INITIAL_HARD_STATE;
    const changed: boolean[] = [];
    for (const s of ["WARNING", "WARNING", "WARNING", "WARNING", "OK", "OK"] as State[]) {
      const step = nextHardState(track, s);
      changed.push(step.hardChanged);
      track = step;
    }
    expect(changed).toEqual([false, false, true, false, true, false]);
  });

  it("an interrupted run starts counting again", () => {
    const t = run(["WARNING", "WARNING", "CRITICAL", "WARNING", "WARNING", "WARNING"]);
    expect(t.map((x) => x.hardState)).toEqual(["OK", "OK", "OK", "OK", "OK", "WARNING"]);
  });

  it("moving between WARNING and CRITICAL also needs maxSoft results", () => {
    const t = run(["WARNING", "WARNING", "WARNING", "CRITICAL", "CRITICAL", "CRITICAL"]);
    expect(t.map((x) => x.hardState)).toEqual(["OK", "OK", "WARNING", "WARNING", "WARNING", "CRITICAL"]);
  });

  it("a recovery to OK is hard at once", () => {
    const t = run(["CRITICAL", "CRITICAL", "CRITICAL", "OK"]);
    expect(t[3]).toEqual({ state: "OK", hardState: "OK", count: 1, hardChanged: true });
    const soft = run(["CRITICAL", "OK"]);
    expect(soft[1]).toMatchObject({ hardState: "OK", hardChanged: false });
  });

  it("maxSoft 1 makes every result hard", () => {
    expect(run(["UNKNOWN", "WARNING", "OK"], 1).map((x) => x.hardState)).toEqual(["UNKNOWN", "WARNING", "OK"]);
  });

  it("defaults to Bischeck's 3", () => {
    let track = INITIAL_HARD_STATE;
    for (let i = 0; i < 2; i++) track = nextHardState(track, "UNKNOWN");
    expect(track.hardState).toBe("OK");
    expect(nextHardState(track, "UNKNOWN").hardState).toBe("UNKNOWN");
  });
});
