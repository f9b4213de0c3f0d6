import { describe, expect, it } from "vitest";
import { ExpositionError, parseExposition, parseSampleSelector, selectValue } from "../src/exposition.ts";

const PAGE = `# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="idle"} 1000.5
node_cpu_seconds_total{cpu="1",mode="idle"} 2000
node_cpu_seconds_total{cpu="0",mode="user"} 10
node_load1 0.25 1700000000000
node_filesystem_avail_bytes{device="/dev/sda1",mountpoint="/",note="a \\"quoted\\" \\\\ value"} 1.5e+10
up +Inf
weird{le="+Inf"} NaN
# EOF
`;

describe("parseExposition", () => {
  it("reads names, labels (escapes included), values and skips comments and timestamps", () => {
    const samples = parseExposition(PAGE);
    expect(samples).toHaveLength(7);
    expect(samples[3]).toEqual({ name: "node_load1", labels: {}, value: 0.25 });
    expect(samples[4]?.labels.note).toBe('a "quoted" \\ value');
    expect(samples[5]?.value).toBe(Number.POSITIVE_INFINITY);
    expect(samples[6]?.value).toBeNaN();
  });

  it("names the line that is not a sample", () => {
    expect(() => parseExposition("ok 1\n{broken} 2\n")).toThrow(ExpositionError);
    expect(() => parseExposition("ok 1\n{broken} 2\n")).toThrow(/line 2/);
    expect(() => parseExposition('x{a="b} 1')).toThrow(/unterminated/);
    expect(() => parseExposition("x abc")).toThrow(/not a number/);
  });
});

describe("selectValue", () => {
  const samples = parseExposition(PAGE);
  it.each([
    ["node_load1", 0.25],
    ['node_cpu_seconds_total{cpu="1",mode="idle"}', 2000],
    ['node_cpu_seconds_total{mode="idle"}', 3000.5],
    ['node_filesystem_avail_bytes{mountpoint="/"}', 1.5e10],
    ['node_cpu_seconds_total{mode="steal"}', null],
    ["absent", null],
  ])("%s → %s", (selector, value) => {
    expect(selectValue(samples, parseSampleSelector(selector))).toBe(value);
  });

  it("refuses a selector that is not one", () => {
    expect(() => parseSampleSelector("node_load1 extra")).toThrow(/unexpected text/);
    expect(() => parseSampleSelector('{mode="idle"}')).toThrow(/metric name/);
  });
});
