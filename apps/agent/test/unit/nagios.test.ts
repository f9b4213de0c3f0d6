import { describe, expect, it } from "vitest";
import { parsePerfdata, parsePluginOutput, parseShellExec, pickValue } from "../../src/nagios.ts";

describe("Nagios plugin output", () => {
  it("reads status, summary and perfdata with units, thresholds and quoted labels", () => {
    const out = parsePluginOutput(
      "TCP OK - 0.001 second response time on 127.0.0.1 port 22|time=0.000512s;1.0;2.0;0.000000;10.000000 'free space'=42%;;\n",
      0,
    );
    expect(out.status).toBe(0);
    expect(out.summary).toBe("TCP OK - 0.001 second response time on 127.0.0.1 port 22");
    expect(out.perfdata).toEqual([
      { label: "time", value: 0.000512, uom: "s" },
      { label: "free space", value: 42, uom: "%" },
    ]);
    expect(pickValue(out, "free space")).toBe(42);
    expect(pickValue(out, null)).toBe(0.000512);
    expect(pickValue(out, "missing")).toBeNull();
  });

  it("collects perfdata from the long-text lines too, and maps unknown exit codes to UNKNOWN", () => {
    const out = parsePluginOutput("DISK WARNING | a=1\nlong text\nmore | b=2.5e3MB;;;\nc=-3", 7);
    expect(out.status).toBe(3);
    expect(out.perfdata.map((p) => [p.label, p.value])).toEqual([
      ["a", 1],
      ["b", 2500],
      ["c", -3],
    ]);
  });

  it("skips malformed entries", () => {
    expect(parsePerfdata(" junk x=U y=5")).toEqual([{ label: "y", value: 5, uom: "" }]);
  });

  it("understands Bischeck's {check, label} exec form and plain command lines", () => {
    expect(parseShellExec(`{"check":"/usr/lib/nagios/plugins/check_tcp -H h -p 80","label":"time"}`)).toEqual({
      command: "/usr/lib/nagios/plugins/check_tcp -H h -p 80",
      label: "time",
    });
    expect(parseShellExec(" check_dummy 0 ")).toEqual({ command: "check_dummy 0", label: null });
    expect(() => parseShellExec(`{"check": 3}`)).toThrow(/needs a command/);
    expect(() => parseShellExec(`{"check": "x"`)).toThrow(/not valid JSON/);
  });
});
