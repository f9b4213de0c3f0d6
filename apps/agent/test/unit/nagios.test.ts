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
    expect(pickValue(out, "free space")).toEqual({ value: 42 });
    expect(pickValue(out, null)).toEqual({ value: 0.000512 });
    expect(pickValue(out, "missing")).toEqual({ value: null });
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

  // The Nagios plugin guidelines' perfdata: 'label'=value[UOM];[warn];[crit];[min];[max].
  it.each([
    ["load1=0.260;15.000;30.000;0;", [{ label: "load1", value: 0.26, uom: "" }]],
    ["'C:\\ Label''s space'=10GB;;;0;100", [{ label: "C:\\ Label's space", value: 10, uom: "GB" }]],
    [
      "time=12ms rta=0.5ms;100;500 pl=0%;20;60;0",
      [
        { label: "time", value: 12, uom: "ms" },
        { label: "rta", value: 0.5, uom: "ms" },
        { label: "pl", value: 0, uom: "%" },
      ],
    ],
    [
      "x=U y=-5c z=.5",
      [
        { label: "x", value: null, uom: "" },
        { label: "y", value: -5, uom: "c" },
        { label: "z", value: 0.5, uom: "" },
      ],
    ],
  ])("reads %j", (text, expected) => {
    expect(parsePerfdata(text)).toEqual(expected);
  });

  it.each([
    ["y=3,5", "y", /y: "3,5" is not a number/],
    ["y=3,5;1;2", "y", /y: "3,5" is not a number/],
    ["y=abc", "y", /y: "abc" is not a number/],
    ["y=", "y", /y: "" is not a number/],
    ["y=1.2.3", "y", /y: "1.2.3" is not a number/],
  ])("reports %j as a parse error, never as a number", (text, label, message) => {
    const [entry] = parsePerfdata(text);
    expect(entry).toMatchObject({ label, value: null });
    expect(entry?.error).toMatch(message);
    expect(pickValue({ status: 0, summary: "OK", perfdata: parsePerfdata(text) }, label)).toMatchObject({
      value: null,
      error: expect.stringMatching(message),
    });
  });

  it("reports an entry that is not label=value, and reads the entries after it", () => {
    const entries = parsePerfdata(" junk y=5");
    expect(entries[0]).toMatchObject({ label: "junk", value: null, error: '"junk" is not label=value' });
    expect(entries[1]).toEqual({ label: "y", value: 5, uom: "" });
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
