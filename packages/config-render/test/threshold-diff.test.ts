import type { Configuration } from "@tidemark/model";
import type { Period, ThresholdPolicy } from "@tidemark/thresholds/policy";
import { describe, expect, it } from "vitest";
import {
  assignByHostRules,
  type DeploymentSnapshot,
  deploymentSnapshotSchema,
  diffEvaluation,
  diffPolicy,
  evaluatedItems,
  type ItemAlerting,
  servicesRunningNowhere,
  snapshotHash,
} from "../src/index.ts";

const flat = (value: number | null): Period["hours"] => ({
  entries: Array.from({ length: 24 }, () => (value === null ? null : { kind: "constant" as const, value })),
  levels: Array(24).fill(null),
});

const policy = (hours: Period["hours"], extra: Partial<ThresholdPolicy> = {}): ThresholdPolicy => ({
  periods: [{ months: [], weeks: [], calcMethod: "<", warning: 10, critical: 30, hours }],
  holidays: [],
  nullState: "UNKNOWN",
  maxSoft: 3,
  timeZone: "UTC",
  ...extra,
});

type CpuAlerting = Partial<Pick<ItemAlerting, "stateSource" | "staleAfterIntervals">> & { margin?: number };

const snapshotWith = (cpu: ThresholdPolicy | null, opts: { calc?: string } & CpuAlerting = {}): DeploymentSnapshot => {
  const configuration: Configuration = {
    hosts: [
      {
        name: "web01",
        alias: null,
        description: "",
        services: [
          {
            name: "load",
            description: "",
            schedules: ["1M", "30S"],
            url: "shell://localhost",
            sendServiceData: true,
            items: [
              {
                name: "cpu",
                description: "",
                execStatement: "check_load",
                thresholdClass: null,
                serviceItemClass: null,
                cacheMaxCount: null,
                policy: cpu,
              },
            ],
          },
          {
            name: "calc",
            description: "",
            schedules: ["5M"],
            url: "bischeck://cache",
            sendServiceData: true,
            items: [
              {
                name: "avg",
                description: "",
                execStatement: opts.calc ?? "avg(web01-load-cpu[0:9])",
                thresholdClass: null,
                serviceItemClass: null,
                cacheMaxCount: null,
                policy: null,
              },
            ],
          },
        ],
      },
    ],
  };
  return {
    configuration,
    assignments: [{ host: "web01", service: "load", agentId: "a1" }],
    alerting:
      opts.margin === undefined && opts.stateSource === undefined && opts.staleAfterIntervals === undefined
        ? []
        : [
            {
              host: "web01",
              service: "load",
              item: "cpu",
              recoveryMarginPercent: opts.margin ?? 0,
              minimumDurationSeconds: 0,
              stateSource: opts.stateSource ?? "worst",
              staleAfterIntervals: opts.staleAfterIntervals ?? 3,
            },
          ],
  };
};

describe("diffPolicy", () => {
  const cases: {
    name: string;
    before: ThresholdPolicy | null;
    after: ThresholdPolicy | null;
    expected: [string, string | null, string | null][];
  }[] = [
    { name: "equal policies", before: policy(flat(20)), after: policy(flat(20)), expected: [] },
    {
      name: "one hour value, old → new",
      before: policy(flat(20)),
      after: policy({ ...flat(20), entries: flat(20).entries.map((e, h) => (h === 13 ? { kind: "constant", value: 25 } : e)) }),
      expected: [["period 1 · hour 13", "20", "25"]],
    },
    {
      name: "a run of equal hour changes collapses into a range; expressions print their source",
      before: policy(flat(20)),
      after: policy({
        ...flat(20),
        entries: flat(20).entries.map((e, h) => (h < 6 ? { kind: "expression", source: "avg(a-b-c[0:3])" } : e)),
      }),
      expected: [["period 1 · hours 0–5", "20", "avg(a-b-c[0:3])"]],
    },
    {
      name: "warning, critical, holidays and the null state",
      before: policy(flat(20)),
      after: {
        ...policy(flat(20), { holidays: [{ year: 2026, days: ["1224", "1225"] }], nullState: "CRITICAL" }),
        periods: [{ ...policy(flat(20)).periods[0]!, warning: 15, critical: 40 }],
      },
      expected: [
        ["period 1 · warning", "10 %", "15 %"],
        ["period 1 · critical", "30 %", "40 %"],
        ["holidays 2026", null, "1224, 1225"],
        ["state when the value is null", "UNKNOWN", "CRITICAL"],
      ],
    },
    {
      name: "an added period with its rules and hours",
      before: policy(flat(20)),
      after: {
        ...policy(flat(20)),
        periods: [
          { months: [], weeks: [{ week: null, dayOfWeek: 1 }], calcMethod: ">", warning: 5, critical: 9, hours: flat(null) },
          ...policy(flat(20)).periods,
        ],
      },
      expected: [
        ["period 1", "default", "weekday 1"],
        ["period 1 · calc method", "< (should be lower)", "> (should be higher)"],
        ["period 1 · warning", "10 %", "5 %"],
        ["period 1 · critical", "30 %", "9 %"],
        ["period 1 · hours 0–23", "20", "none"],
        ["period 2", null, "default"],
        ["period 2 · calc method", null, "< (should be lower)"],
        ["period 2 · warning", null, "10 %"],
        ["period 2 · critical", null, "30 %"],
        ["period 2 · hours 0–23", null, "20"],
        ["period 2 · hours 0–23 levels", null, "period's"],
      ],
    },
    {
      name: "a removed threshold",
      before: policy(flat(20)),
      after: null,
      expected: [
        ["threshold", "set", "none"],
        ["period 1", "default", null],
        ["period 1 · calc method", "< (should be lower)", null],
        ["period 1 · warning", "10 %", null],
        ["period 1 · critical", "30 %", null],
        ["period 1 · hours 0–23", "20", null],
        ["period 1 · hours 0–23 levels", "period's", null],
        ["state when the value is null", "UNKNOWN", null],
        ["max soft", "3", null],
        ["time zone", "UTC", null],
      ],
    },
  ];
  it.each(cases)("$name", ({ before, after, expected }) => {
    expect(diffPolicy(before, after).map((f) => [f.field, f.before, f.after])).toEqual(expected);
  });
});

describe("diffEvaluation", () => {
  it("lists nothing between equal snapshots", () => {
    expect(diffEvaluation(snapshotWith(policy(flat(20))), snapshotWith(policy(flat(20))))).toEqual([]);
  });

  it("groups threshold, alert-setting and calculation changes by item", () => {
    const before = snapshotWith(policy(flat(20)));
    const after = snapshotWith(policy(flat(30)), { calc: "max(web01-load-cpu[0:9])", margin: 5 });
    expect(diffEvaluation(before, after)).toEqual([
      {
        seriesKey: "web01-calc-avg",
        host: "web01",
        service: "calc",
        item: "avg",
        change: "changed",
        fields: [{ field: "calculation", before: "avg(web01-load-cpu[0:9])", after: "max(web01-load-cpu[0:9])" }],
      },
      {
        seriesKey: "web01-load-cpu",
        host: "web01",
        service: "load",
        item: "cpu",
        change: "changed",
        fields: [
          { field: "period 1 · hours 0–23", before: "20", after: "30" },
          { field: "recovery margin", before: "0 %", after: "5 %" },
        ],
      },
    ]);
  });

  it("shows where the state comes from and when silence is stale, old → new", () => {
    const before = snapshotWith(policy(flat(20)));
    const after = snapshotWith(policy(flat(20)), { stateSource: "plugin", staleAfterIntervals: 5 });
    expect(diffEvaluation(before, after).map((c) => [c.seriesKey, c.fields])).toEqual([
      [
        "web01-load-cpu",
        [
          { field: "state source", before: "worst", after: "plugin" },
          { field: "stale after", before: "3 intervals", after: "5 intervals" },
        ],
      ],
    ]);
    expect(diffEvaluation(after, before).flatMap((c) => c.fields.map((f) => [f.field, f.before, f.after]))).toEqual([
      ["state source", "plugin", "worst"],
      ["stale after", "5 intervals", "3 intervals"],
    ]);
  });

  it("shows a first deployment's thresholds and calculations as added; items that decide nothing are left to the check diff", () => {
    const changes = diffEvaluation(null, snapshotWith(policy(flat(20))));
    expect(changes.map((c) => [c.seriesKey, c.change])).toEqual([
      ["web01-calc-avg", "added"],
      ["web01-load-cpu", "added"],
    ]);
    expect(diffEvaluation(null, snapshotWith(null)).map((c) => c.seriesKey)).toEqual(["web01-calc-avg"]);
  });
});

describe("evaluatedItems", () => {
  it("gives each item its policy, shortest interval and alert settings (defaults when not listed)", () => {
    const items = evaluatedItems(snapshotWith(policy(flat(20)), { margin: 7 }));
    expect(items.map((i) => [i.seriesKey, i.intervalMs, i.recoveryMarginPercent, i.minimumDurationSeconds, i.policy !== null])).toEqual([
      ["web01-load-cpu", 30_000, 7, 0, true],
      ["web01-calc-avg", 300_000, 0, 0, false],
    ]);
  });
});

describe("deployment snapshots' alert settings", () => {
  it("reads a snapshot from before state source and staleness were deployed with the defaults, and keeps its hash", () => {
    const older = {
      ...snapshotWith(policy(flat(20))),
      alerting: [{ host: "web01", service: "load", item: "cpu", recoveryMarginPercent: 5, minimumDurationSeconds: 60 }],
    };
    const read = deploymentSnapshotSchema.parse(older);
    expect(read.alerting).toEqual([{ ...older.alerting[0], stateSource: "worst", staleAfterIntervals: 3 }]);
    expect(snapshotHash(read)).toBe(snapshotHash(older));
    expect(evaluatedItems(read).map((i) => [i.seriesKey, i.stateSource, i.staleAfterIntervals])).toEqual([
      ["web01-load-cpu", "worst", 3],
      ["web01-calc-avg", "worst", 3],
    ]);
  });

  it("changes the hash when an item's state source or staleness changes, and lists only items off the defaults", () => {
    const defaults = snapshotWith(policy(flat(20)), { stateSource: "worst", staleAfterIntervals: 3 });
    expect(snapshotHash(defaults)).toBe(snapshotHash(snapshotWith(policy(flat(20)))));
    const hashes = [
      defaults,
      snapshotWith(policy(flat(20)), { stateSource: "threshold" }),
      snapshotWith(policy(flat(20)), { staleAfterIntervals: 4 }),
    ].map(snapshotHash);
    expect(new Set(hashes).size).toBe(3);
    expect(evaluatedItems(snapshotWith(null, { stateSource: "plugin", staleAfterIntervals: 2 }))[0]).toMatchObject({
      stateSource: "plugin",
      staleAfterIntervals: 2,
    });
  });
});

describe("servicesRunningNowhere", () => {
  it("flags agent-run services without an active agent, never calculations", () => {
    const snapshot = snapshotWith(null);
    expect(servicesRunningNowhere(snapshot, new Set(["a1"]))).toEqual([]);
    expect(servicesRunningNowhere(snapshot, new Set(["a2"]))).toEqual([{ host: "web01", service: "load" }]);
  });
});

describe("assignByHostRules", () => {
  const hostsWith = (...names: string[]): Configuration => ({
    hosts: names.map((name) => ({
      name,
      alias: null,
      description: "",
      services: [
        { name: "ping", description: "", schedules: ["1M"], url: "shell://localhost", sendServiceData: true, items: [] },
        { name: "calc", description: "", schedules: ["1M"], url: "bischeck://cache", sendServiceData: true, items: [] },
      ],
    })),
  });
  const A = "00000000-0000-4000-8000-00000000000a";
  const B = "00000000-0000-4000-8000-00000000000b";
  it.each([
    {
      name: "first matching rule wins",
      rules: [
        { hostPattern: "web*", agentId: A },
        { hostPattern: "*", agentId: B },
      ],
      expected: [
        ["web01", A],
        ["db.1", B],
      ],
    },
    { name: "? is one character and . is literal", rules: [{ hostPattern: "db.?", agentId: A }], expected: [["db.1", A]] },
    { name: "no rule, no agent", rules: [], expected: [] },
  ])("$name", ({ rules, expected }) => {
    expect(assignByHostRules(hostsWith("web01", "db.1"), rules).map((a) => [a.host, a.agentId])).toEqual(expected);
  });
});
