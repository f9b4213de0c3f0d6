/**
 * Bischeck fidelity of the import: its real configuration sets import without refusal, round-trip
 * through export and evaluate; what Tidemark cannot run is kept and named in a warning.
 */
import { evaluate, InMemorySeriesData } from "@tidemark/expr";
import { evaluateThreshold } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import { BischeckImportError, exportBischeck, filesFromDirectory, formatPreview, importBischeck, importPreview } from "../src/index.ts";
import { postgresFromJdbc } from "../src/read-bischeck.ts";
import { miniBischeck, must, repositorySets, thresholdsFor } from "./fixtures.ts";

describe("the five configuration sets of Bischeck's repository", () => {
  it.each(repositorySets)("$name imports, and import(export(import)) equals import", (files) => {
    const first = importBischeck(files);
    expect(first.configuration.hosts.length).toBeGreaterThan(0);
    for (const warning of first.warnings) expect(warning).toMatch(/^(bischeck|24thresholds)\.xml:/);
    const exported = exportBischeck(first.configuration, { templates: first.templates });
    expect(importBischeck(exported).configuration).toEqual(first.configuration);
  });

  it.each(repositorySets.filter((s) => s.thresholdsXml !== undefined))(
    "$name: every threshold evaluates (a state for every item with a policy, at any hour)",
    (files) => {
      const { configuration } = importBischeck(files);
      const data = new InMemorySeriesData();
      for (const h of configuration.hosts)
        for (const s of h.services) for (const i of s.items) data.ensure(`${h.name}-${s.name}-${i.name}`);
      let evaluated = 0;
      for (const h of configuration.hosts)
        for (const s of h.services)
          for (const i of s.items) {
            if (!i.policy) continue;
            for (const at of [Date.UTC(2015, 1, 25, 3, 10), Date.UTC(2015, 5, 2, 12), Date.UTC(2024, 6, 1, 21, 59)]) {
              const r = evaluateThreshold(i.policy, {
                at,
                value: 5,
                context: { data, macros: { host: h.name, service: s.name, item: i.name }, unknownSeries: "null" },
              });
              expect(["OK", "WARNING", "CRITICAL", "UNKNOWN"]).toContain(r.state);
              evaluated++;
            }
          }
      expect(evaluated).toBeGreaterThan(0);
    },
  );

  it("etc/: a cachetemplate without <purge> is defined (smallCache)", () => {
    const etc = must(repositorySets.find((s) => s.name === "etc"));
    expect(() => importBischeck(etc)).not.toThrow();
  });

  it("testetc/: <to>24:00</to> and <notification> import; a dangling hoursIDREF is a period without thresholds", () => {
    const { warnings } = importBischeck(must(repositorySets.find((s) => s.name === "testetc")));
    expect(warnings).toContainEqual(expect.stringMatching(/^bischeck\.xml:139: <notification>/));
    expect(warnings).toContainEqual(expect.stringMatching(/^24thresholds\.xml:69: <hoursIDREF>: hoursIDREF 103 refers to no/));
  });

  it("remoteetc/: livestatus:// is kept, disabled, and named in a warning", () => {
    const { configuration, warnings } = importBischeck(must(repositorySets.find((s) => s.name === "remoteetc")));
    const urls = configuration.hosts.flatMap((h) => h.services.map((s) => s.url));
    expect(urls).toContain("livestatus://$$HOSTALIAS$$:6557");
    expect(warnings).toContainEqual(expect.stringMatching(/^bischeck\.xml:151: <url>: livestatus:\/\/.* is kept but disabled/));
  });
});

/** Bischeck's service URLs in one service of the minimal file. */
const withUrl = (url: string) => ({
  bischeckXml: miniBischeck.replace("<url>shell://localhost</url>", `<url>${url.replaceAll("&", "&amp;")}</url>`),
});

describe("service URLs", () => {
  it.each([
    [
      "jdbc:postgresql://db.example:5432/app?user=mon&password=s3cret",
      "postgres://mon:s3cret@db.example:5432/app",
      /mapped .*password=\*\*\* to the agent's postgres check/,
    ],
    [
      "jdbc:mysql://db/app?user=a",
      "jdbc:mysql://db/app?user=a",
      /<url>: jdbc:mysql:\/\/db\/app\?user=a is kept but disabled: Tidemark has no jdbc:mysql check/,
    ],
    [
      "jdbc:derby:memory:bischeck;create=true",
      "jdbc:derby:memory:bischeck;create=true",
      /is kept but disabled: Tidemark has no jdbc:derby check/,
    ],
    ["livestatus://monitor:6557", "livestatus://monitor:6557", /is kept but disabled: Tidemark has no livestatus:\/\/ check/],
  ])("%s is imported as %s", (url, kept, warning) => {
    const { configuration, warnings } = importBischeck(withUrl(url));
    expect(configuration.hosts[0]?.services[0]?.url).toBe(kept);
    expect(warnings).toContainEqual(expect.stringMatching(warning));
    expect(warnings.join("\n")).not.toContain("s3cret");
  });

  it("maps the JDBC forms of PostgreSQL", () => {
    expect(postgresFromJdbc("jdbc:postgresql://h/db")).toBe("postgres://h/db");
    expect(postgresFromJdbc("jdbc:postgresql://h:5433/db?user=u&ssl=true")).toBe("postgres://u@h:5433/db?ssl=true");
    expect(postgresFromJdbc("jdbc:mysql://h/db")).toBeNull();
  });
});

describe("expressions are checked at import", () => {
  const hours = (value: string) => Array.from({ length: 24 }, () => `    <hour>${value}</hour>`).join("\n");
  it.each([
    ["avg(h-s-i[0:9])", []],
    ["stddev(h-s-i[0:9]) * 2", []],
    ["avg($$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[-1H:END])", []],
    ["avg(other-s-i[0:3])", [/names other-s-i, which is not a service item/]],
    ["avg(h-s-i[0:3]", [/is not an expression Tidemark can evaluate .*expected ',' or '\)' at 1:15/]],
    ["foo(1)", [/expected a function name at 1:1/]],
  ])("%s", (source, expected) => {
    const { warnings } = importBischeck({ bischeckXml: miniBischeck, thresholdsXml: thresholdsFor(hours(source)) });
    const about = warnings.filter((w) => w.includes("period 1 hour"));
    expect(about).toHaveLength(expected.length);
    for (const [i, pattern] of expected.entries()) expect(about[i]).toMatch(pattern);
    for (const w of about) expect(w).toMatch(/^24thresholds\.xml:3: <servicedef> h-s-i period 1 hour 0: /);
  });
});

describe("hostile XML", () => {
  it("50 000-deep nesting is a positioned import error, not a crash", () => {
    const xml = `<bischeck>\n${"<host>".repeat(50_000)}${"</host>".repeat(50_000)}</bischeck>`;
    try {
      importBischeck({ bischeckXml: xml });
      throw new Error("expected a refusal");
    } catch (error) {
      expect(error).toBeInstanceOf(BischeckImportError);
      expect((error as BischeckImportError).issues[0]).toMatchObject({
        file: "bischeck.xml",
        line: 2,
        message: expect.stringMatching(/deeper than 100/),
      });
    }
  });
});

/**
 * Ported from Bischeck's Twenty4HourThresholdTest.verifyConfiguration and
 * Twenty4HourThresholdCritWarnTest.verifyOverrideCriticalWarning, against testetc/24thresholds.xml
 * (servicedefgroup h1-s1-i1, template testthreshold). Bischeck's Floats are compared to 3 decimals.
 */
describe("Twenty4HourThresholdTest / Twenty4HourThresholdCritWarnTest (testetc, h1-s1-i1)", () => {
  const testetc = must(repositorySets.find((s) => s.name === "testetc"));
  const bischeckXml = miniBischeck
    .replace("<name>h</name>", "<name>h1</name>")
    .replace("<name>s</name>", "<name>s1</name>")
    .replace("<name>i</name>", "<name>i1</name>");
  const { configuration } = importBischeck({ bischeckXml, thresholdsXml: testetc.thresholdsXml });
  const policy = must(configuration.hosts[0]?.services[0]?.items[0]?.policy, "h1-s1-i1 policy");
  const at = (month: number, day: number, hour: number, minute: number) => Date.UTC(2015, month - 1, day, hour, minute);

  it("2015-01-01 14:10 is a holiday", () => {
    expect(evaluateThreshold(policy, { at: at(1, 1, 14, 10), value: null })).toMatchObject({ state: "OK", noThreshold: "holiday" });
  });
  it.each([
    [at(1, 2, 14, 10), "default", 1000, 950, 900],
    [at(2, 25, 14, 10), "monthAndDayOfMonth", 2000, 1600, 1400],
    [at(2, 25, 3, 10), "monthAndDayOfMonth", 1833.3334, 1466.6667, 1283.3334],
    [at(2, 25, 21, 10), "monthAndDayOfMonth", 1166.6666, 1049.9999, 933.3333],
  ])("verifyConfiguration at %s: rule %s, threshold %s, warning %s, critical %s", (when, rule, threshold, warning, critical) => {
    const r = evaluateThreshold(policy, { at: when, value: 1 });
    expect(r.rule).toBe(rule);
    expect(r.threshold).toBeCloseTo(threshold, 3);
    expect(r.warning).toBeCloseTo(warning, 3);
    expect(r.critical).toBeCloseTo(critical, 3);
  });
  it("verifyOverrideCriticalWarning: 2015-01-25 1000 is OK, 800 CRITICAL; 2015-06-02 (a holiday) 800 is OK", () => {
    expect(evaluateThreshold(policy, { at: at(1, 25, 12, 0), value: 1000 }).state).toBe("OK");
    expect(evaluateThreshold(policy, { at: at(1, 25, 12, 0), value: 800 }).state).toBe("CRITICAL");
    expect(evaluateThreshold(policy, { at: at(6, 2, 12, 0), value: 800 })).toMatchObject({ state: "OK", calcMethod: null, warning: null });
  });
  it.each([3, 21])("verifyOverrideCriticalWarning: 2015-02-25 at %s:10 2000 is OK and 500 CRITICAL", (hour) => {
    expect(evaluateThreshold(policy, { at: at(2, 25, hour, 10), value: 2000 }).state).toBe("OK");
    expect(evaluateThreshold(policy, { at: at(2, 25, hour, 10), value: 500 }).state).toBe("CRITICAL");
  });
});

it("an imported calculation evaluates with Bischeck's names (aggregated series, @, leading digits)", () => {
  const data = new InMemorySeriesData();
  data.append("10.0.0.1-ping-rtt", 0, 4);
  data.append("G1BS01-Beam35UTsonline/H/avg/weekend-UTsonline", 0, 6);
  expect(evaluate("avg(10.0.0.1-ping-rtt[0], G1BS01-Beam35UTsonline/H/avg/weekend-UTsonline[0])", { now: 0, data })).toBe(5);
});

describe("properties.xml", () => {
  const properties = (value: string) =>
    `<properties>\n  <property><key>pidfile</key><value>/var/tmp/b.pid</value></property>\n  <property><key>notFullListParse</key><value>${value}</value></property>\n</properties>`;
  it.each([
    ["true", true],
    ["TRUE", true],
    ["false", undefined],
  ])("notFullListParse %s gives the policies notFullListParse %s; other properties are named", (value, expected) => {
    const { configuration, warnings } = importBischeck({
      bischeckXml: miniBischeck,
      thresholdsXml: thresholdsFor(Array.from({ length: 24 }, () => "    <hour>10</hour>").join("\n")),
      propertiesXml: properties(value),
    });
    expect(configuration.hosts[0]?.services[0]?.items[0]?.policy?.notFullListParse).toBe(expected);
    expect(warnings).toContainEqual(expect.stringMatching(/^properties\.xml:1: <properties>: properties not imported .*: pidfile$/));
  });
});

describe("a whole configuration directory", () => {
  it("reads bischeck.xml and 24thresholds.xml and names the other files", () => {
    const { files, notes } = filesFromDirectory([
      { name: "etc/bischeck.xml", text: miniBischeck },
      { name: "servers.xml", text: "<servers/>" },
      { name: "properties.xml", text: "<properties/>" },
    ]);
    expect(files).toEqual({ bischeckXml: miniBischeck, thresholdsXml: undefined, propertiesXml: "<properties/>" });
    expect(notes).toEqual([expect.stringMatching(/^servers\.xml .* is not imported/)]);
    expect(filesFromDirectory([{ name: "24thresholds.xml", text: "" }]).files).toBeNull();
  });

  it("previews each service as kept, mapped or disabled", () => {
    const xml = miniBischeck.replace(
      "  </host>",
      `    <service>
      <name>db</name>
      <schedule>5M</schedule>
      <url>jdbc:postgresql://db/app?user=u&amp;password=p</url>
      <serviceitem><name>rows</name><execstatement>select 1</execstatement></serviceitem>
    </service>
    <service>
      <name>live</name>
      <schedule>5M</schedule>
      <url>livestatus://monitor:6557</url>
      <serviceitem><name>load</name><execstatement>GET hosts</execstatement></serviceitem>
    </service>
  </host>`,
    );
    const result = importBischeck({ bischeckXml: xml });
    const preview = importPreview(result);
    expect(preview.counts).toEqual({ kept: 1, mapped: 1, disabled: 1 });
    expect(preview.services.find((s) => s.service === "db")).toMatchObject({ fate: "mapped", url: "postgres://u:p@db/app" });
    const text = formatPreview(result, preview, []);
    expect(text).toContain("services: 1 kept, 1 mapped, 1 disabled");
    expect(text).toContain("mapped   h-db: postgres://u:***@db/app (was jdbc:postgresql://db/app?user=u&password=***)");
    expect(text).toContain("disabled h-live: livestatus://monitor:6557");
  });
});
