import { describe, expect, it } from "vitest";
import { BischeckImportError, type BischeckIssue, importBischeck } from "../src/index.ts";
import { hourList, miniBischeck, thresholdsFor } from "./fixtures.ts";

const interval = (from: string, to: string, threshold = "100") =>
  `    <hourinterval>\n      <from>${from}</from>\n      <to>${to}</to>\n      <threshold>${threshold}</threshold>\n    </hourinterval>`;
const okHours = interval("00:00", "23:00");

function issuesOf(files: { bischeckXml: string; thresholdsXml?: string }): BischeckIssue[] {
  try {
    importBischeck(files);
  } catch (error) {
    expect(error).toBeInstanceOf(BischeckImportError);
    return (error as BischeckImportError).issues;
  }
  throw new Error("import was expected to fail");
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<bischeck><host><name>&lol3;</name></host></bischeck>`;

const externalEntity = `<?xml version="1.0"?>
<!DOCTYPE twenty4threshold [
  <!ENTITY x SYSTEM "file:///etc/passwd">
]>
<twenty4threshold>&x;</twenty4threshold>`;

type Case = {
  name: string;
  bischeckXml?: string;
  thresholdsXml?: string;
  file: BischeckIssue["file"];
  element: string;
  line: number;
  message: RegExp;
};

const cases: Case[] = [
  {
    name: "unknown tag in bischeck.xml",
    bischeckXml: miniBischeck.replace("<name>s</name>", "<name>s</name>\n      <colour>red</colour>"),
    file: "bischeck.xml",
    element: "colour",
    line: 7,
    message: /unknown element <colour> in <service>/,
  },
  {
    name: "unknown tag in 24thresholds.xml",
    thresholdsXml: thresholdsFor(okHours).replace("<warning>10</warning>", "<warning>10</warning><wraning>1</wraning>"),
    file: "24thresholds.xml",
    element: "wraning",
    line: 9,
    message: /unknown element <wraning> in <period>/,
  },
  {
    name: "23 <hour> elements",
    thresholdsXml: thresholdsFor(hourList(Array(23).fill("1"))),
    file: "24thresholds.xml",
    element: "hours",
    line: 14,
    message: /has 23 <hour> elements, expected exactly 24/,
  },
  {
    name: "25 <hour> elements (points at the 25th)",
    thresholdsXml: thresholdsFor(hourList(Array(25).fill("1"))),
    file: "24thresholds.xml",
    element: "hour",
    line: 39,
    message: /has 25 <hour> elements/,
  },
  {
    name: "bad calcmethod",
    thresholdsXml: thresholdsFor(okHours, "1", "&gt;="),
    file: "24thresholds.xml",
    element: "calcmethod",
    line: 8,
    message: /<calcmethod> must be >, < or =/,
  },
  {
    name: "unknown servicetemplate",
    bischeckXml: `<bischeck>\n  <host>\n    <name>h</name>\n    <service>\n      <template>nope</template>\n    </service>\n  </host>\n</bischeck>`,
    file: "bischeck.xml",
    element: "template",
    line: 5,
    message: /unknown servicetemplate "nope"/,
  },
  {
    name: "unknown servicedeftemplate",
    thresholdsXml: `<twenty4threshold>\n  <servicedefgroup>\n    <member><hostname>h</hostname><servicename>s</servicename><serviceitemname>i</serviceitemname></member>\n    <template>missing</template>\n  </servicedefgroup>\n</twenty4threshold>`,
    file: "24thresholds.xml",
    element: "template",
    line: 4,
    message: /unknown servicedeftemplate "missing"/,
  },
  {
    name: "billion laughs",
    bischeckXml: billionLaughs,
    file: "bischeck.xml",
    element: "!ENTITY",
    line: 3,
    message: /entity declaration is not accepted/,
  },
  {
    name: "external entity",
    thresholdsXml: externalEntity,
    file: "24thresholds.xml",
    element: "!ENTITY",
    line: 3,
    message: /external entity declaration is not accepted/,
  },
  {
    name: "DOCTYPE without entities",
    bischeckXml: `<?xml version="1.0"?>\n<!DOCTYPE bischeck SYSTEM "http://example.com/bischeck.dtd">\n<bischeck/>`,
    file: "bischeck.xml",
    element: "!DOCTYPE",
    line: 2,
    message: /DOCTYPE declaration is not accepted/,
  },
  {
    name: "undefined entity reference",
    bischeckXml: miniBischeck.replace("check_x", "check_x &passwd;"),
    file: "bischeck.xml",
    element: "execstatement",
    line: 11,
    message: /undefined entity &passwd;/,
  },
  {
    name: "not well-formed XML",
    bischeckXml: miniBischeck.replace("</url>", "</uri>"),
    file: "bischeck.xml",
    element: "xml",
    line: 8,
    message: /not well-formed XML/,
  },
  {
    name: "hourinterval from after to",
    thresholdsXml: thresholdsFor(interval("18:00", "08:00")),
    file: "24thresholds.xml",
    element: "hourinterval",
    line: 15,
    message: /from 18:00 is after to 08:00/,
  },
  {
    name: "hourinterval hour out of range",
    thresholdsXml: thresholdsFor(interval("08:00", "25:00")),
    file: "24thresholds.xml",
    element: "to",
    line: 17,
    message: /hour of the day from 00:00 to 24:00/,
  },
  {
    name: "hour and hourinterval mixed",
    thresholdsXml: thresholdsFor(`${okHours}\n    <hour>1</hour>`),
    file: "24thresholds.xml",
    element: "hours",
    line: 14,
    message: /either 24 <hour> elements or <hourinterval>/,
  },
  {
    name: "missing required element",
    bischeckXml: miniBischeck.replace("      <url>shell://localhost</url>\n", ""),
    file: "bischeck.xml",
    element: "service",
    line: 5,
    message: /missing <url>/,
  },
  {
    name: "wrong root element",
    thresholdsXml: "<thresholds/>",
    file: "24thresholds.xml",
    element: "thresholds",
    line: 1,
    message: /expected <twenty4threshold>/,
  },
  {
    name: "dayofweek out of range",
    thresholdsXml: thresholdsFor(okHours).replace("<period>", "<period>\n      <weeks><dayofweek>8</dayofweek></weeks>"),
    file: "24thresholds.xml",
    element: "dayofweek",
    line: 8,
    message: /must be from 1 to 7/,
  },
  {
    name: "bad holiday day",
    thresholdsXml: thresholdsFor(okHours).replace(
      "</twenty4threshold>",
      '  <holiday year="2013">\n    <dayofyear>1332</dayofyear>\n  </holiday>\n</twenty4threshold>',
    ),
    file: "24thresholds.xml",
    element: "dayofyear",
    line: 22,
    message: /MMDD/,
  },
  {
    name: "invalid schedule",
    bischeckXml: miniBischeck.replace("<schedule>5M</schedule>", "<schedule>every minute</schedule>"),
    file: "bischeck.xml",
    element: "schedule",
    line: 7,
    message: /invalid <schedule>/,
  },
  {
    name: "duplicate hoursID",
    thresholdsXml: thresholdsFor(okHours).replace(
      "</twenty4threshold>",
      `  <hours hoursID="1">\n${okHours}\n  </hours>\n</twenty4threshold>`,
    ),
    file: "24thresholds.xml",
    element: "hours",
    line: 21,
    message: /duplicate <hours hoursID="1">/,
  },
];

describe("malformed and hostile input is refused with the element and line", () => {
  it.each(cases)("$name", (c) => {
    const issues = issuesOf({
      bischeckXml: c.bischeckXml ?? miniBischeck,
      thresholdsXml: c.thresholdsXml ?? thresholdsFor(okHours),
    });
    expect(issues[0]).toMatchObject({
      file: c.file,
      element: c.element,
      line: c.line,
    });
    expect(issues[0]?.message).toMatch(c.message);
    expect(issues[0]?.column).toBeGreaterThan(0);
    expect(issues.map((i) => i.element)).toEqual([c.element]);
  });

  it("the valid baseline of the table imports", () => {
    const { configuration } = importBischeck({
      bischeckXml: miniBischeck,
      thresholdsXml: thresholdsFor(okHours),
    });
    expect(configuration.hosts[0]?.services[0]?.items[0]?.policy?.periods[0]?.hours.entries[12]).toEqual({ kind: "constant", value: 100 });
  });

  it("reports every problem of both files at once, and the message names file, line and element", () => {
    const bischeckXml = miniBischeck.replace("<name>s</name>", "<name>s</name><colour/>");
    const thresholdsXml = thresholdsFor(okHours, "1", "&gt;=");
    const issues = issuesOf({ bischeckXml, thresholdsXml });
    expect(issues.map((i) => [i.file, i.element])).toEqual([
      ["bischeck.xml", "colour"],
      ["24thresholds.xml", "calcmethod"],
    ]);
    try {
      importBischeck({ bischeckXml, thresholdsXml });
    } catch (error) {
      expect((error as Error).message).toContain("24thresholds.xml:8:");
    }
  });

  it("refuses oversized input and a billion-laughs document quickly", () => {
    const started = performance.now();
    expect(() => importBischeck({ bischeckXml: billionLaughs })).toThrow(BischeckImportError);
    expect(performance.now() - started).toBeLessThan(100);
    expect(() =>
      importBischeck({
        bischeckXml: `<bischeck>${" ".repeat(17 * 1024 * 1024)}</bischeck>`,
      }),
    ).toThrow(/larger than/);
  });
});
