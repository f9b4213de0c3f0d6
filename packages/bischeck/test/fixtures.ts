import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The real Bischeck files live in `../shared/bischeck` beside the repository root. */
const SHARED = new URL("../../../../shared/bischeck/", import.meta.url);

export interface RealFiles {
  name: string;
  bischeckXml: string;
  thresholdsXml: string;
}

function load(dir: string): RealFiles {
  const read = (file: string) => readFileSync(fileURLToPath(new URL(`${dir}${file}`, SHARED)), "utf8");
  return {
    name: dir || "sample",
    bischeckXml: read("bischeck.xml"),
    thresholdsXml: read("24thresholds.xml"),
  };
}

/** The five configuration sets of Bischeck's repository (etc/, testetc/, remoteetc/, src/main/benchmark/ and its template/). */
export const repositorySets = ["etc", "testetc", "remoteetc", "benchmark", "benchmark-template"].map((dir) => {
  const path = (file: string) => fileURLToPath(new URL(`repository-head/${dir}/${file}`, SHARED));
  return {
    name: dir,
    bischeckXml: readFileSync(path("bischeck.xml"), "utf8"),
    thresholdsXml: existsSync(path("24thresholds.xml")) ? readFileSync(path("24thresholds.xml"), "utf8") : undefined,
  };
});

export const sample = load("");
export const benchmark = load("benchmark/");
export const realFiles = [sample, benchmark];

/** A minimal valid bischeck.xml with one host, service and item (line numbers are stable). */
export const miniBischeck = `<?xml version="1.0"?>
<bischeck>
  <host>
    <name>h</name>
    <service>
      <name>s</name>
      <schedule>5M</schedule>
      <url>shell://localhost</url>
      <serviceitem>
        <name>i</name>
        <execstatement>check_x</execstatement>
        <thresholdclass>Twenty4HourThreshold</thresholdclass>
        <serviceitemclass>CheckCommandServiceItem</serviceitemclass>
      </serviceitem>
    </service>
  </host>
</bischeck>
`;

/** A 24thresholds.xml for h-s-i whose period refers to hours `ref`, with `hours` as the hours body. */
export function thresholdsFor(hours: string, ref = "1", calc = "&gt;"): string {
  return `<?xml version="1.0"?>
<twenty4threshold>
  <servicedef>
    <hostname>h</hostname>
    <servicename>s</servicename>
    <serviceitemname>i</serviceitemname>
    <period>
      <calcmethod>${calc}</calcmethod>
      <warning>10</warning>
      <critical>30</critical>
      <hoursIDREF>${ref}</hoursIDREF>
    </period>
  </servicedef>
  <hours hoursID="1">
${hours}
  </hours>
</twenty4threshold>
`;
}

export function hourList(values: string[]): string {
  return values.map((v) => `    <hour>${v}</hour>`).join("\n");
}

/** The value, or a test failure when it is missing (instead of non-null assertions). */
export function must<T>(value: T | null | undefined, what = "value"): T {
  if (value === null || value === undefined) throw new Error(`test fixture: missing ${what}`);
  return value;
}
