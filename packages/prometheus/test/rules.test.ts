import type { Period, ThresholdPolicy } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RuleExportError, renderRuleGroup, ruleGroup } from "../src/rules.ts";

const constant = (value: number | null) => ({
  entries: Array.from({ length: 24 }, () => (value === null ? null : ({ kind: "constant", value } as const))),
  levels: Array.from({ length: 24 }, () => null),
});
const period = (over: Partial<Period> = {}): Period => ({
  months: [],
  weeks: [],
  calcMethod: ">",
  warning: 10,
  critical: 30,
  hours: constant(100),
  ...over,
});
const policy = (over: Partial<ThresholdPolicy> = {}): ThresholdPolicy => ({
  periods: [period()],
  holidays: [],
  nullState: "UNKNOWN",
  maxSoft: 3,
  timeZone: "UTC",
  ...over,
});
const input = (p: ThresholdPolicy) => ({ key: "h-s-i", selector: 'm{instance="h"}', policy: p, intervalSeconds: 30 });

describe("ruleGroup", () => {
  it("records the line and its boundaries, and alerts once the problem held for maxSoft intervals", () => {
    const group = ruleGroup(input(policy()));
    expect(group.name).toBe("tidemark:h-s-i");
    expect(group.interval).toBe("30s");
    expect(group.rules.map((r) => r.record ?? r.alert)).toEqual([
      "tidemark:threshold",
      "tidemark:threshold_warning",
      "tidemark:threshold_critical",
      "TidemarkThresholdProblem",
      "TidemarkThresholdCritical",
      "TidemarkThresholdWarning",
    ]);
    expect(group.rules[0]?.expr).toContain("vector(100) and on() hour() == 0");
    expect(group.rules[1]?.expr).toContain("((vector(100) * 90) / 100)");
    expect(group.rules[3]).toMatchObject({ alert: "TidemarkThresholdProblem", for: "90s" });
    expect(group.rules[4]).toMatchObject({ labels: { series: "h-s-i", severity: "critical" } });
    expect(group.rules[4]?.expr).toContain('ALERTS{alertname="TidemarkThresholdProblem",alertstate="firing",series="h-s-i"}');
    expect(ruleGroup(input(policy({ maxSoft: 0 }))).rules[3]).toMatchObject({ for: "0m" });
  });

  it("records the lower band edges for '='", () => {
    const rules = ruleGroup(input(policy({ periods: [period({ calcMethod: "=" })] })))
      .rules.map((r) => r.record)
      .filter(Boolean);
    expect(rules).toContain("tidemark:threshold_warning_low");
    expect(rules).toContain("tidemark:threshold_critical_low");
  });

  it("leaves out a policy without any threshold's lines, but keeps the alerts (which then never fire)", () => {
    expect(ruleGroup(input(policy({ periods: [period({ hours: constant(null) })] }))).rules.map((r) => r.record ?? r.alert)).toEqual([
      "TidemarkThresholdProblem",
      "TidemarkThresholdCritical",
      "TidemarkThresholdWarning",
    ]);
  });

  it.each([
    ["a time zone other than UTC", policy({ timeZone: "Europe/Stockholm" }), /UTC/],
    [
      "an expression hour",
      policy({
        periods: [
          period({
            hours: { ...constant(1), entries: [{ kind: "expression", source: "avg(a-b-c[0:9])" }, ...constant(1).entries.slice(1)] },
          }),
        ],
      }),
      /hour 0 is the expression/,
    ],
    ["week-number rules", policy({ periods: [period({ weeks: [{ week: 12, dayOfWeek: null }] })] }), /ISO week/],
    [
      "mixed calculation methods",
      policy({ periods: [period(), period({ calcMethod: "<", weeks: [{ week: null, dayOfWeek: 1 }] })] }),
      /calculation methods/,
    ],
  ])("refuses %s, saying what", (_name, p, message) => {
    expect(() => ruleGroup(input(p))).toThrow(RuleExportError);
    expect(() => ruleGroup(input(p))).toThrow(message);
  });

  it("renders YAML that reads back as the group", () => {
    expect(parse(renderRuleGroup(input(policy())))).toEqual({ groups: [JSON.parse(JSON.stringify(ruleGroup(input(policy()))))] });
  });
});
