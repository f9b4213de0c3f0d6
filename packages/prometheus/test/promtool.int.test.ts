import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { evaluateThreshold, INITIAL_HARD_STATE, nextHardState, type Period, type State, type ThresholdPolicy } from "@tidemark/thresholds";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { RECORDED, renderRuleGroup } from "../src/rules.ts";

/**
 * The exported rules against Debian's promtool: `promtool check rules` accepts them, and
 * `promtool test rules` finds Prometheus firing exactly when Tidemark's own evaluation of the same
 * samples is a hard WARNING or CRITICAL, and the recorded threshold lines equal Tidemark's.
 */

const PROMTOOL = "/usr/bin/promtool";
const dir = process.env.KEEP_DIR ?? mkdtempSync(path.join(os.tmpdir(), "tidemark-promtool-"));
afterAll(() => (process.env.KEEP_DIR ? undefined : rmSync(dir, { recursive: true, force: true })));

/** One sample every five minutes (the minutes still move the interpolated line between hours). */
const STEP_MINUTES = 5;
const STEP_MS = STEP_MINUTES * 60_000;
/** Three days from promtool's time 0 (Thursday 1 January 1970, UTC): a weekend day and a holiday included. */
const SAMPLES = (3 * 24 * 60) / STEP_MINUTES;

function promtool(args: string[]): string {
  try {
    return execFileSync(PROMTOOL, args, { encoding: "utf8", cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`.slice(0, 8000));
  }
}

const hours = (value: (h: number) => number | null) => ({
  entries: Array.from({ length: 24 }, (_, h) => {
    const v = value(h);
    return v === null ? null : ({ kind: "constant", value: v } as const);
  }),
  levels: Array.from({ length: 24 }, () => null) as Period["hours"]["levels"],
});

function policy(periods: Period[], over: Partial<ThresholdPolicy> = {}): ThresholdPolicy {
  return { periods, holidays: [], nullState: "UNKNOWN", maxSoft: 3, timeZone: "UTC", ...over };
}

/** A deterministic walk over a few levels, in runs of 1–6 samples, so that states go soft and hard. */
function samples(levels: readonly number[], seed: number): number[] {
  let x = seed;
  const next = () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    x %= 2_147_483_648;
    return x / 2_147_483_648;
  };
  const out: number[] = [];
  while (out.length < SAMPLES) {
    const level = levels[Math.floor(next() * levels.length)] as number;
    const run = 1 + Math.floor(next() * 6);
    for (let i = 0; i < run && out.length < SAMPLES; i++) out.push(level);
  }
  return out;
}

const KEY = "h-s-latency";
const SELECTOR = 'latency{instance="h",job="s"}';

/** Tidemark's verdict per sample: the alert that should be firing, and the threshold line. */
function tidemark(p: ThresholdPolicy, values: readonly number[]) {
  let track = INITIAL_HARD_STATE;
  return values.map((value, i) => {
    const result = evaluateThreshold(p, { at: i * STEP_MS, value });
    track = nextHardState(track, result.state, p.maxSoft);
    const firing: State | null = track.hardState !== "OK" ? track.hardState : null;
    return { firing, threshold: result.threshold, warning: result.warning, critical: result.critical };
  });
}

function check(name: string, p: ThresholdPolicy, values: readonly number[]) {
  const rules = path.join(dir, `${name}.rules.yml`);
  writeFileSync(
    rules,
    renderRuleGroup({ key: KEY, selector: SELECTOR, policy: p, intervalSeconds: STEP_MINUTES * 60, labels: { host: "h" } }),
  );
  expect(promtool(["check", "rules", rules])).toMatch(/SUCCESS/);

  const verdicts = tidemark(p, values);
  const fired = new Set(verdicts.map((v) => v.firing));
  // The series must exercise both alerts, or the comparison proves little.
  expect(fired.has("WARNING") && fired.has("CRITICAL") && fired.has(null)).toBe(true);
  const alertTests = verdicts.flatMap((v, i) => {
    const changed = i === 0 || verdicts[i - 1]?.firing !== v.firing;
    if (!changed && i % 29 !== 0) return [];
    return (["WARNING", "CRITICAL"] as const).map((severity) => ({
      eval_time: `${i * STEP_MINUTES}m`,
      alertname: severity === "WARNING" ? "TidemarkThresholdWarning" : "TidemarkThresholdCritical",
      exp_alerts:
        v.firing === severity
          ? [
              {
                exp_labels: { instance: "h", job: "s", host: "h", series: KEY, severity: severity.toLowerCase() },
                exp_annotations: {
                  summary: `${KEY} is ${severity}`,
                  description: `value ${values[i]} against Tidemark's threshold for ${KEY}`,
                },
              },
            ]
          : [],
    }));
  });
  const lineTests = verdicts.flatMap((v, i) =>
    i % 23 === 0
      ? (
          [
            [RECORDED.threshold, v.threshold],
            [RECORDED.warning, v.warning],
            [RECORDED.critical, v.critical],
          ] as const
        ).map(([record, value]) => ({
          expr: record,
          eval_time: `${i * STEP_MINUTES}m`,
          exp_samples: value === null ? [] : [{ labels: `${record}{series="${KEY}"}`, value }],
        }))
      : [],
  );
  const test = path.join(dir, `${name}.test.yml`);
  writeFileSync(
    test,
    stringify(
      {
        rule_files: [path.basename(rules)],
        evaluation_interval: `${STEP_MINUTES}m`,
        tests: [
          {
            interval: `${STEP_MINUTES}m`,
            input_series: [{ series: SELECTOR, values: values.join(" ") }],
            alert_rule_test: alertTests,
            promql_expr_test: lineTests,
          },
        ],
      },
      { lineWidth: 0 },
    ),
  );
  expect(promtool(["test", "rules", test])).toMatch(/SUCCESS/);
}

describe("exported rules under promtool", () => {
  it("'<' with a weekend period, a holiday, a per-hour override and an hour without threshold", () => {
    const weekday: Period = {
      months: [],
      weeks: [],
      calcMethod: "<",
      warning: 10,
      critical: 30,
      hours: hours((h) => (h === 5 ? null : 100 + 4 * h)),
    };
    weekday.hours.levels[14] = { warning: 20, critical: 50 };
    const weekend: Period = {
      months: [],
      weeks: [
        { week: null, dayOfWeek: 1 },
        { week: null, dayOfWeek: 7 },
      ],
      calcMethod: "<",
      warning: 10,
      critical: 30,
      hours: hours(() => 60),
    };
    // 1 January 1970 is a Thursday: the 3rd is a Saturday (weekend); the 2nd is made a holiday.
    const p = policy([weekend, weekday], { holidays: [{ year: 1970, days: ["0102"] }] });
    check("lower", p, samples([50, 70, 90, 120, 125, 150, 170, 200], 7));
  });

  it("'>' with a one-minute hard state (maxSoft 1)", () => {
    const p = policy([{ months: [], weeks: [], calcMethod: ">", warning: 10, critical: 25, hours: hours((h) => 1000 - 10 * h) }], {
      maxSoft: 1,
    });
    check("higher", p, samples([1000, 950, 880, 800, 700, 600], 11));
  });

  it("'=' bands, a month-and-day period before the default", () => {
    const band: Period = { months: [], weeks: [], calcMethod: "=", warning: 5, critical: 15, hours: hours(() => 200) };
    const newYear: Period = {
      months: [{ month: 1, dayOfMonth: 1 }],
      weeks: [],
      calcMethod: "=",
      warning: 5,
      critical: 15,
      hours: hours(() => 300),
    };
    check("near", policy([band, newYear], { maxSoft: 2 }), samples([160, 175, 185, 200, 215, 225, 240, 290, 300, 330, 360], 3));
  });
});
