import { describe, expect, it } from "vitest";
import { exportBischeck, importBischeck } from "../src/index.ts";
import { benchmark, miniBischeck, must, realFiles, thresholdsFor } from "./fixtures.ts";

describe("round trip of the real files", () => {
  it.each(realFiles)("$name: import(export(import(files))) equals import(files), with and without templates", (files) => {
    const first = importBischeck(files);
    for (const options of [{ templates: first.templates }, {}]) {
      const exported = exportBischeck(first.configuration, options);
      expect(exported.warnings).toEqual([]);
      const second = importBischeck(exported);
      expect(second.configuration).toEqual(first.configuration);
      // and the export is stable
      expect(exportBischeck(second.configuration, { templates: second.templates })).toEqual(
        exportBischeck(second.configuration, { templates: second.templates }),
      );
    }
  });
});

describe("template structure on export", () => {
  const first = importBischeck(benchmark);

  it("re-emits the service templates and the servicedefgroup when the objects still fit them", () => {
    const { bischeckXml, thresholdsXml } = exportBischeck(first.configuration, {
      templates: first.templates,
    });
    expect(bischeckXml).toContain("<template>randtemplate</template>");
    expect(bischeckXml).toContain('<servicetemplate templatename="avgrandtemplate">');
    expect(thresholdsXml).toContain("<servicedefgroup>");
    expect(thresholdsXml).toContain('<servicedeftemplate templatename="randthreshold">');
    expect(thresholdsXml).not.toContain("<servicedef>");
    expect(importBischeck({ bischeckXml, thresholdsXml }).templates).toEqual(first.templates);
  });

  it("writes a serviceoverride for a changed schedule, and expands what an override cannot express", () => {
    const changed = structuredClone(first.configuration);
    const [rand, avgrand] = changed.hosts[0]?.services ?? [];
    if (!rand || !avgrand?.items[0]?.policy) throw new Error("fixture");
    rand.schedules = ["1M"];
    avgrand.items[0].execStatement = "avg($$HOSTNAME$$-rand-number[0:4])";
    must(avgrand.items[0].policy.periods[0]).warning = 7;
    const { bischeckXml, thresholdsXml } = exportBischeck(changed, {
      templates: first.templates,
    });
    expect(bischeckXml).toMatch(/<template>randtemplate<\/template>\s*<serviceoverride>\s*<schedule>1M<\/schedule>/);
    expect(bischeckXml).not.toContain("avgrandtemplate");
    expect(thresholdsXml).toContain("<servicedef>");
    expect(thresholdsXml).not.toContain("servicedefgroup");
    expect(importBischeck({ bischeckXml, thresholdsXml }).configuration).toEqual(changed);
  });

  it("without templates, exports expanded definitions", () => {
    const { bischeckXml, thresholdsXml } = exportBischeck(first.configuration);
    expect(bischeckXml).not.toContain("template");
    expect(thresholdsXml).not.toContain("template");
  });
});

describe("export details", () => {
  it("escapes text, writes calc methods as entities, and warns about what Bischeck cannot carry", () => {
    const { configuration } = importBischeck({
      bischeckXml: miniBischeck,
      thresholdsXml: thresholdsFor("<hourinterval><from>00:00</from><to>23:00</to><threshold>1</threshold></hourinterval>"),
    });
    const item = must(configuration.hosts[0]?.services[0]?.items[0]);
    const policy = must(item.policy);
    must(policy.periods[0]).calcMethod = "<";
    policy.timeZone = "Europe/Stockholm";
    item.execStatement = "check -w \"<5\" & echo 'x'";
    const exported = exportBischeck(configuration);
    expect(exported.bischeckXml).toContain("<execstatement>check -w \"&lt;5\" &amp; echo 'x'</execstatement>");
    expect(exported.thresholdsXml).toContain("<calcmethod>&lt;</calcmethod>");
    expect(exported.warnings).toEqual([expect.stringMatching(/time zone Europe\/Stockholm is not written/)]);
    const back = must(importBischeck(exported).configuration.hosts[0]?.services[0]?.items[0]);
    expect(back.execStatement).toBe(item.execStatement);
    expect(back.policy?.timeZone).toBe("UTC");
  });

  it("writes one holiday list per file: the union when policies differ, with a warning", () => {
    const bischeckXml = miniBischeck.replace(
      "</serviceitem>",
      "</serviceitem>\n<serviceitem><name>j</name><execstatement>x</execstatement></serviceitem>",
    );
    const { configuration } = importBischeck({
      bischeckXml,
      thresholdsXml: thresholdsFor("<hour>1</hour>".repeat(24)),
    });
    const [i, j] = must(configuration.hosts[0]?.services[0]).items.map((x) => must(x));
    const policy = must(i?.policy);
    must(j).policy = { ...structuredClone(policy), holidays: [{ year: 2025, days: ["0101"] }] };
    policy.holidays = [{ year: 2024, days: ["1224"] }];
    const exported = exportBischeck(configuration);
    expect(exported.warnings).toEqual([expect.stringMatching(/different holidays/)]);
    const back = must(importBischeck(exported).configuration.hosts[0]?.services[0]).items;
    expect(back.map((x) => x.policy?.holidays)).toEqual([
      [
        { year: 2024, days: ["1224"] },
        { year: 2025, days: ["0101"] },
      ],
      [
        { year: 2024, days: ["1224"] },
        { year: 2025, days: ["0101"] },
      ],
    ]);
  });

  it("refuses text XML cannot carry", () => {
    const { configuration } = importBischeck({ bischeckXml: miniBischeck });
    must(configuration.hosts[0]).description = "bell \u0007";
    expect(() => exportBischeck(configuration)).toThrow(/character XML cannot represent/);
  });
});
