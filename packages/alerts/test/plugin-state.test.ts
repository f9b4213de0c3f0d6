import type { State } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import { itemState, pluginExplanation, pluginState, type StateSource } from "../src/index.ts";

describe("plugin states", () => {
  it.each([
    [0, "OK"],
    [1, "WARNING"],
    [2, "CRITICAL"],
    [3, "UNKNOWN"],
    [4, "UNKNOWN"],
    [-1, "UNKNOWN"],
  ] as const)("exit code %i is %s", (code, state) => {
    expect(pluginState(code)).toBe(state);
  });

  // source, threshold's state (null: no threshold), plugin's (null: no exit code), the item's.
  it.each<[StateSource, State | null, State | null, State | null]>([
    ["worst", null, "CRITICAL", "CRITICAL"], // a plugin exiting 2 with no threshold raises CRITICAL
    ["worst", "OK", "CRITICAL", "CRITICAL"],
    ["worst", "WARNING", "OK", "WARNING"],
    ["worst", "CRITICAL", "WARNING", "CRITICAL"],
    ["worst", "WARNING", "UNKNOWN", "WARNING"],
    ["worst", "OK", null, "OK"], // calculations carry no exit code
    ["worst", null, null, null],
    ["threshold", "OK", "CRITICAL", "OK"], // Bischeck's habit
    ["threshold", null, "CRITICAL", null],
    ["plugin", "CRITICAL", "OK", "OK"], // Nagios's habit
    ["plugin", "WARNING", null, "WARNING"],
    ["plugin", null, "WARNING", "WARNING"],
  ])("%s of threshold %s and plugin %s is %s", (source, threshold, plugin, expected) => {
    expect(itemState(source, threshold, plugin)).toBe(expected);
  });

  it("explains the plugin's part with its output", () => {
    expect(pluginExplanation(2, "CRITICAL - load average: 9.1 ")).toBe("plugin CRITICAL (exit 2): CRITICAL - load average: 9.1");
    expect(pluginExplanation(0, "")).toBe("plugin OK (exit 0)");
  });
});
